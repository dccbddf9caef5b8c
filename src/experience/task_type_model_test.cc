#include "experience/task_type_model.h"

#include <gtest/gtest.h>

#include <cmath>

namespace engram::experience {
namespace {

std::vector<TaskTypeExample> Examples() {
  // Names repeat across types (the same customers), the verb says the type.
  std::vector<TaskTypeExample> out;
  const char* names[] = {"omar", "mia", "raj", "lin"};
  for (int i = 0; i < 8; ++i) {
    const std::string name = names[i % 4];
    out.push_back({{name, "cancel", "order", "mistak"}, "cancel_order"});
    out.push_back({{name, "return", "order", "item"}, "return_items"});
    out.push_back({{name, "cancel", "order", "return", "item"}, "cancel_order+return_items"});
  }
  out.push_back({{"weather"}, ""});  // untyped: skipped
  return out;
}

TEST(TaskTypeModelTest, LearnsWhichWordsSayWhichType) {
  TaskTypeModel m = TaskTypeModel::Train(Examples());
  ASSERT_FALSE(m.empty());
  EXPECT_EQ(m.example_count(), 24u);
  EXPECT_EQ(m.types().size(), 3u);
  auto cancel = m.Classify({"mia", "cancel", "mistak"});
  ASSERT_EQ(cancel.size(), 3u);
  EXPECT_EQ(cancel[0].task_type, "cancel_order");
  EXPECT_GT(cancel[0].probability, 0.5);
  double total = 0;
  for (const auto& g : cancel) total += g.probability;
  EXPECT_NEAR(total, 1.0, 1e-9);
  EXPECT_EQ(m.Classify({"raj", "return", "item"})[0].task_type, "return_items");
  EXPECT_EQ(m.Classify({"cancel", "return", "item"})[0].task_type, "cancel_order+return_items");
}

TEST(TaskTypeModelTest, NamesAloneSayLittle) {
  TaskTypeModel m = TaskTypeModel::Train(Examples());
  auto guesses = m.Classify({"omar", "unknown_word"});
  ASSERT_EQ(guesses.size(), 3u);
  EXPECT_LT(guesses[0].probability, 0.6) << "no type is sure from a customer's name";
}

TEST(TaskTypeModelTest, SameExamplesSameModel) {
  auto a = TaskTypeModel::Train(Examples()).Classify({"cancel", "item"});
  auto b = TaskTypeModel::Train(Examples()).Classify({"cancel", "item"});
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].task_type, b[i].task_type);
    EXPECT_DOUBLE_EQ(a[i].probability, b[i].probability);
  }
}

TEST(TaskTypeModelTest, EmptyWithoutTypedExamples) {
  TaskTypeModel m = TaskTypeModel::Train({{{"x"}, ""}});
  EXPECT_TRUE(m.empty());
  EXPECT_TRUE(m.Classify({"x"}).empty());
}

}  // namespace
}  // namespace engram::experience
