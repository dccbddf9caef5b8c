#include "experience/agent_area.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "store/sqlite/episode_store.h"
#include "test_database.h"
#include "test_util.h"

namespace engram::experience {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class AgentAreaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    t_ = test::OpenTestDatabase(dir_.File("a.db"));
    ASSERT_NE(t_.db, nullptr);
  }

  // An ended episode of `agent` and `type`.
  Episode Add(const std::string& id, const std::string& agent, const std::string& type, bool success) {
    Episode e{.id = id, .agent_id = agent, .goal = "g", .task_type = type, .task_type_source = "declared",
              .task_type_confidence = 1, .started_at = 100};
    EXPECT_OK(t_.db->WriteTransaction([&]() -> Status {
      sqlite::EpisodeStore store(*t_.db);
      auto seq = store.Insert(t_.ns, e);
      if (!seq) return seq.error();
      e.seq = *seq;
      return store.End(*seq, {.outcome = success ? "success" : "failure", .ended_at = 300}, 300);
    }));
    return e;
  }

  // Where `episode` stands for `agent`.
  std::optional<Placement> For(const std::string& agent, const Episode& episode) {
    std::optional<Placement> out;
    EXPECT_OK(t_.db->ReadTransaction([&]() -> Status {
      auto area = AgentArea::Load(*t_.db, t_.ns, agent, options_);
      if (!area) return area.error();
      auto p = area->ForEpisode(episode);
      if (!p) return p.error();
      out = *p;
      return Status::Ok();
    }));
    return out;
  }

  test::TempDir dir_;
  test::TestDatabase t_;
  ExperienceOptions options_;
};

TEST_F(AgentAreaTest, OwnPrivateAndSharedEpisodes) {
  const Episode mine = Add("01A", "alice", "refund", true);
  ASSERT_TRUE(For("alice", mine).has_value());
  EXPECT_EQ(For("alice", mine)->area, "own");
  EXPECT_FALSE(For("bob", mine).has_value()) << "alice's private episode";
  Add("01B", "bob", "refund", true);
  Add("01C", "carol", "refund", true);
  std::optional<Placement> shared = For("dave", mine);
  ASSERT_TRUE(shared.has_value());
  EXPECT_EQ(shared->area, "shared");
  EXPECT_THAT(shared->source_agents, ElementsAre("alice", "bob", "carol"));
  EXPECT_DOUBLE_EQ(shared->weight, 1.0) << "dave has no typed episode";
  Add("01D", "dave", "cancel", true);
  std::optional<Placement> other = For("dave", mine);
  ASSERT_TRUE(other.has_value());
  EXPECT_DOUBLE_EQ(other->weight, options_.shared_other_type_weight);
  EXPECT_THAT(other->why, HasSubstr("none of type refund"));
}

}  // namespace
}  // namespace engram::experience
