#include "write/extraction/rules_chinese.h"

#include <unicode/regex.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <optional>
#include <array>
#include <initializer_list>
#include <memory>
#include <string>

#include "write/extraction/rules_english.h"

namespace engram::extraction::rules {
namespace {

// ---- Pattern pieces ---------------------------------------------------------------------------

// Relation words, longest first where one is a prefix of another at the same position.
#define ZH_REL                                                                                                                          \
  "(女朋友|男朋友|好朋友|未婚妻|未婚夫|外甥女|女友|男友|朋友|闺蜜|同事|同学|室友|邻居|老板|领导|" \
  "上司|"                                                                                                                             \
  "妹妹|姐姐|哥哥|弟弟|妈妈|爸爸|母亲|父亲|老婆|老公|妻子|丈夫|太太|爱人|儿子|女儿|孩子|表妹|"      \
  "表姐|"                                                                                                                             \
  "表哥|表弟|堂妹|堂姐|堂哥|堂弟|爷爷|奶奶|外婆|外公|姥姥|姥爷|舅舅|叔叔|阿姨|姑姑|伯伯|婶婶|"      \
  "侄子|侄女|"                                                                                                                      \
  "外甥|宝宝|前妻|前夫|导师|教练|小狗|小猫|狗狗|猫咪|姐夫|妹夫|嫂子|弟媳|哥们|姐妹)"

// How a name given right after a relation word without 叫 opens ("我表哥张伟", "我同事小李"): a
// Latin capital, one of the common surnames, or 小/老/阿. Without it "我表哥毕业了" and "我妹妹换工作了"
// read 毕业 and 换工作 as names.
#define ZH_NAME_START                                                                               \
  "(?:[A-Z]|小|老|阿|[王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘" \
  "于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史" \
  "陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤])"

// ZH_REL, and the short kin words that name a relative only right after 我 (我爸, 我姐; alone they
// are parts of other words: 哥伦比亚). Longer words first, as in ZH_REL.
#define ZH_REL_AFTER_SPEAKER "(?:" ZH_REL "|(?:老爸|老妈|爸|妈|哥|姐|弟|妹)(?![们夫媳妹姐哥弟儿伦子呀的咪]))"

// A name right after a relation word: a capitalised Latin word, or two or three Han characters
// that do not open with a function word and are followed by one.
#define ZH_NAME                                                                                                                                   \
  "((?:[A-Z][A-Za-z0-9\\-]*)|(?!["                                                                                                                \
  "说告在去和跟也都是的住要会想很最刚已正还又就才每经常从到把被给对了过"                                        \
  "着一今明昨下上这那他她我你们喜爱搬买有不没吃喝做来回出工当现结开学送带养打准计让叫请帮陪与同家" \
  "非特"                                                                                                                                        \
  "真太挺比更以之将后前平总])\\p{Han}{2,3}?)"                                                                                         \
  "(?=一起|住|在|去|说|是|的|和|也|都|今天|昨天|明天|下周|上周|下个|上个|今年|明年|去年|最|很|刚|"              \
  "已|"                                                                                                                                          \
  "要|会|想|打算|准备|喜欢|爱|搬|买|有|正|还|又|就|才|每|经常|从|到|把|被|给|对|跟|与|了|过|吃|"                  \
  "喝|做|"                                                                                                                                      \
  "来|回|出|工作|当|现在|结婚|开|学|告诉|送|带|养|[，。！？,.!?、；;：:\\s]|$)"

// Leading time words and adverbs before a subject.
#define ZH_LEAD                                                                                                                    \
  "(?:(?:最近|现在|目前|刚刚|刚才|刚|已经|也|还|都|就|一直|其实|另外|而且|然后|所以|不过|但是|"   \
  "可是|"                                                                                                                        \
  "对了|哈哈|嗯|啊|哦|好吧|是的|今天|昨天|前天|明天|后天|上周末|这周末|下周末|上周|下周|这周|" \
  "本周|"                                                                                                                        \
  "上个月|下个月|这个月|去年|今年|明年|周末|平时)[，,\\s]*)*"

// Verbs that name a habit (longest first).
#define ZH_VERB                                                                                                                      \
  "(练瑜伽|跑步|游泳|健身|锻炼|散步|冥想|瑜伽|喝|吃|看|读|写|玩|打|练|做|听|骑|学|用|去|抽|弹|画|" \
  "逛|遛|"                                                                                                                         \
  "泡|煮|唱|跳|开|上|坐|带|陪|送|买)"

enum class Kind {
  kPlain,        // predicate with the value group
  kFavorite,     // group 1 = slot, group 2 = value
  kRelation,     // group 1 = relation word, group 2 = name
  kHabit,        // group 1 = verb (slot), group 2 = object (may be empty)
  kQuitHabit,    // 戒烟: group 1 = object; slot from a small map
  kUses,         // uses; slot from the lexicon
  kUsesLexicon,  // uses, only when the lexicon knows the value
  kJob,          // job, only when the value ends like a job
  kGoBare,       // 去X: plans_to "去X" when planned, went_to X otherwise
};

struct RuleSpec {
  const char* pattern;
  const char* predicate;
  Kind kind;
  unsigned qualifiers;
  double confidence;
  bool value_has_verb;  // the value keeps its leading verb ("去巴黎出差")
  bool keep_times;      // the value is a date (birthdays): time expressions stay
};

constexpr unsigned kNeg = kBitNegated;
constexpr unsigned kHab = kBitHabitual;
constexpr unsigned kPlan = kBitPlanned;

// In priority order: a match overlapping an earlier rule's match in the same clause is dropped
// (更喜欢 is prefers, not likes). Relation matches never block.
constexpr RuleSpec kRuleSpecs[] = {
    {"(?:我的?|我们的?|和|跟|与|同|陪|有(?:一个|个|一位|两个)?)" ZH_REL "(?:叫|(?=" ZH_NAME_START "))" ZH_NAME,
     "has_relation", Kind::kRelation, 0, 0.85, false, false},
    {"最(?:喜欢|爱)的(.{1,8}?)(?:是|就是)(.{1,40})", "favorite", Kind::kFavorite, 0, 0.85, false,
     false},
    {"(?:更喜欢|比较喜欢|更爱|偏爱|宁愿|宁可|更倾向于|更偏向)(.{1,40})", "prefers", Kind::kPlain, 0,
     0.85, false, false},
    {"(?:讨厌|受不了|厌恶|反感|不喜欢|不爱)(.{1,40})", "likes", Kind::kPlain, kNeg, 0.85, false,
     false},
    {"(?:喜欢|热爱|喜爱|钟爱|爱上了|迷上了|着迷于|沉迷于)(.{1,40})", "likes", Kind::kPlain, 0, 0.85,
     false, false},
    {"(?<![可恋亲心热关疼宠恩性])爱((?:吃|喝|看|玩|听|打|唱|跳|逛|读|画|做|去).{0,40})", "likes",
     Kind::kPlain, 0, 0.8, true, false},
    {"(?:我叫|我的名字(?:是|叫)|我名叫)(.{1,20})", "name", Kind::kPlain, 0, 0.9, false, false},
    {"我(?:今年|现在|已经)*(\\d{1,3}|[一二三四五六七八九十两]{1,3})周?岁", "age", Kind::kPlain, 0,
     0.85, false, false},
    {"(?:今年|现在|已经)+(\\d{1,3}|[一二三四五六七八九十两]{1,3})周?岁", "age", Kind::kPlain, 0,
     0.8, false, true},
    {"我的?生日(?:是|在)(.{1,20})", "birthday", Kind::kPlain, 0, 0.9, false, true},
    {"(?:我来自|我老家(?:是|在)|我(?:出生|生)(?:在|于)|我的家乡是)(.{1,30})", "hometown",
     Kind::kPlain, 0, 0.85, false, false},
    {"我是(\\p{Han}{2,6}?)人(?![员士物生])", "hometown", Kind::kPlain, 0, 0.8, false, false},
    {"在(.{1,20}?)长大", "hometown", Kind::kPlain, 0, 0.8, false, false},
    {"(?:住在|住到|住进了?)(.{1,30})", "lives_in", Kind::kPlain, 0, 0.9, false, false},
    {"(?:搬到|搬去|搬进|搬回|搬家到|迁居|移居|定居)(?:了|到|在|于)?(.{1,30})", "lives_in",
     Kind::kPlain, 0, 0.85, false, false},
    {"在(.{1,15}?)(?:生活|定居)", "lives_in", Kind::kPlain, 0, 0.8, false, false},
    {"在(.{1,20}?)(?:工作|上班|任职|实习|打工)", "employer", Kind::kPlain, 0, 0.85, false, false},
    {"(?:就职于|任职于|供职于)(.{1,30})", "employer", Kind::kPlain, 0, 0.85, false, false},
    {"在(.{1,20}?)(?:上学|读书|念书|读研|读博|读大学|上大学|读高中|上高中|读初中)", "school",
     Kind::kPlain, 0, 0.85, false, false},
    {"就读于(.{1,30})", "school", Kind::kPlain, 0, 0.85, false, false},
    {"(?:已经)?(结婚|离婚|订婚|退休|怀孕|单身|失业|辞职)了", "status", Kind::kPlain, 0, 0.8, false,
     false},
    {"我是(素食者|素食主义者|单身|独生子|独生女|丁克|左撇子|吃素的)", "status", Kind::kPlain, 0,
     0.8, false, false},
    {"我(吃素)", "status", Kind::kPlain, 0, 0.75, false, false},
    {"我(?:的工作|的职业)是(.{1,20})", "job", Kind::kPlain, 0, 0.85, false, false},
    {"(?<![但可还就总要于或凡若倒硬真只老算不像])(?:是|当了|做了)(?:一名|一个|一位|个|名)?(\\p{Han}"
     "{1,8})",
     "job", Kind::kJob, 0, 0.8, false, false},
    {"(?:换成|换到|换回|切换到|切换成|切到|改成|改用|改为|换用|使用|在用|用着)(.{1,30})", "uses",
     Kind::kUses, 0, 0.8, false, false},
    {"(?:用上了?|开启了?|打开了?|开了|调成|调到|设置成|设成|用)(.{1,30})", "uses",
     Kind::kUsesLexicon, 0, 0.75, false, false},
    {"把(.{1,20}?)(?:卖掉|卖|丢|弄丢|送人|扔掉|扔|送掉)了", "owns", Kind::kPlain, kNeg, 0.75, false,
     false},
    {"(?:卖了|卖掉了|丢了|弄丢了|扔了)(.{1,30})", "owns", Kind::kPlain, kNeg, 0.75, false, false},
    {"(?:买了|买到了|入手了|养了|领养了|收养了|新买了?|买下了)(.{1,30})", "owns", Kind::kPlain, 0,
     0.75, false, false},
    {"我(?:有|拥有)(?![点些时空事没人意必机兴])(.{1,30})", "owns", Kind::kPlain, 0, 0.7, false,
     false},
    {"戒(?:了|掉了?)?(烟|酒|咖啡|糖|可乐|奶茶|游戏)", "habit", Kind::kQuitHabit, kNeg | kHab, 0.8,
     false, false},
    {"(?:不再|没再|不会再|再也不|停止|别再)" ZH_VERB "(.{0,30})", "habit", Kind::kHabit,
     kNeg | kHab, 0.8, false, false},
    {"(?:每天|每周|每个?星期|每个?月|每晚|每早|每个?周末|经常|常常|总是|平时|一般|通常|天天|每年|"
     "每次)"
     "(?:都|会|要|也|还|必须|基本)?(?:早上|晚上|中午|下午)?" ZH_VERB "(.{0,30})",
     "habit", Kind::kHabit, kHab, 0.75, false, false},
    {"(?:打算|准备|计划|想要|将要|希望|决定|考虑)(.{1,40})", "plans_to", Kind::kPlain, kPlan, 0.75,
     false, false},
    {"(?<![需重主只不总])(?:想|要)((?:去|学|买|换|搬|试|做|成为|当|考|读|看|吃|参加|尝试|养|开|办|"
     "找|"
     "回|出|报|申请).{0,40})",
     "plans_to", Kind::kPlain, kPlan, 0.65, true, false},
    {"(?:飞到|飞去|回到|去|(?<![收拿得遇想找看听达做感受见])到|回)(?:了|过)(.{1,30})", "went_to",
     Kind::kPlain, 0, 0.75, false, false},
    {"(?:参观了|游览了|逛了|拜访了|探望了|看望了)(.{1,30})", "went_to", Kind::kPlain, 0, 0.75,
     false, false},
    {"(?:加入了?|报名(?:参加)?了?)(.{1,30})", "joined", Kind::kPlain, 0, 0.8, false, false},
    {"(?:参加了?|出席了?|参与了?)(.{1,30})", "attended", Kind::kPlain, 0, 0.8, false, false},
    {"开始了?(.{1,30})", "started", Kind::kPlain, 0, 0.75, false, false},
    {"(?:完成了|做完了|读完了|看完了|写完了|学完了|毕业于)(.{1,30})", "finished", Kind::kPlain, 0,
     0.75, false, false},
    {"从(.{1,20}?)毕业", "finished", Kind::kPlain, 0, 0.75, false, false},
    {"(?:正在|一直在|最近在|都在|在)((?:学|做|写|看|练|准备|找|读|玩|画|弹|跑|用|开发|研究|忙|上|"
     "参加|"
     "考虑|筹备|装修|减肥|健身|追|听|养|带|教|拍|录|织|修|种|筹划|整理|搬).{0,40})",
     "doing", Kind::kPlain, 0, 0.6, true, false},
    {"(?<![过回失出进来上下])去(?!年|世|掉|除)(.{1,30})", "went_to", Kind::kGoBare, 0, 0.65, false,
     false},
};

struct Rule {
  std::unique_ptr<icu::RegexPattern> re;
  const RuleSpec* spec = nullptr;
};

std::unique_ptr<icu::RegexPattern> Compile(const char* pattern) {
  UErrorCode status = U_ZERO_ERROR;
  UParseError parse_error;
  std::unique_ptr<icu::RegexPattern> re(
      icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(pattern), 0, parse_error, status));
  if (U_FAILURE(status)) return nullptr;  // a bad pattern is a bug; the rule is skipped
  return re;
}

const std::vector<Rule>& Rules() {
  static const std::vector<Rule> kRules = [] {
    std::vector<Rule> rules;
    for (const RuleSpec& spec : kRuleSpecs) {
      Rule rule;
      rule.re = Compile(spec.pattern);
      rule.spec = &spec;
      if (rule.re != nullptr) rules.push_back(std::move(rule));
    }
    return rules;
  }();
  return kRules;
}

// Clause openings that decide the subject.
const icu::RegexPattern* RelationSubject() {
  static const std::unique_ptr<icu::RegexPattern> kRe =
      Compile("^" ZH_LEAD "((?:我的|我们的|我|我们)" ZH_REL_AFTER_SPEAKER ")(?:叫)?(?:" ZH_NAME ")?");
  return kRe.get();
}

// Someone else opens the clause: a pronoun, or a bare relation word with no 我 before it
// ("同事住在上海" is about a colleague, never the speaker; whose colleague is not said).
const icu::RegexPattern* NameStart() {
  static const std::unique_ptr<icu::RegexPattern> kRe = Compile(ZH_NAME_START);
  return kRe.get();
}

const icu::RegexPattern* BlockedSubject() {
  static const std::unique_ptr<icu::RegexPattern> kRe =
      Compile("^" ZH_LEAD "(?:他们|她们|他|她|它|你们|你|您|这|那|大家|别人|有人|谁|" ZH_REL ")");
  return kRe.get();
}

const icu::RegexPattern* LatinNameSubject() {
  static const std::unique_ptr<icu::RegexPattern> kRe =
      Compile("^" ZH_LEAD "([A-Z][A-Za-z0-9\\-]*(?: [A-Z][A-Za-z0-9\\-]*)?)\\s*(?=\\p{Han})");
  return kRe.get();
}

// "我朋友说他…", "小梅告诉我她…": the reporting verb and the pronoun after it.
const icu::RegexPattern* ReportedSpeech() {
  static const std::unique_ptr<icu::RegexPattern> kRe =
      Compile("(?:跟我说|告诉我|说|提到|讲)过?[，,：:\\s]*(他们|她们|他|她)");
  return kRe.get();
}

const icu::RegexPattern* SpeakerSubject() {
  static const std::unique_ptr<icu::RegexPattern> kRe = Compile("^" ZH_LEAD "(?:我们|咱们|我)");
  return kRe.get();
}

bool HasAny(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view word : words) {
    if (text.find(word) != std::string_view::npos) return true;
  }
  return false;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A job title ends like one: 老师, 工程师, 程序员, 学生, 作家 …
bool LooksLikeJob(std::string_view value) {
  static constexpr std::array<std::string_view, 32> kEnds = {
      "师",   "员",   "生",   "家",   "者",   "工",   "手",   "长",   "警",     "医",      "士",
      "匠",   "商",   "编辑", "司机", "老板", "经理", "主管", "会计", "销售",   "记者",    "教授",
      "博士", "护士", "模特", "演员", "歌手", "主播", "律师", "总监", "创始人", "自由职业"};
  for (std::string_view end : kEnds) {
    if (EndsWith(value, end)) return true;
  }
  return false;
}

// The object of 戒烟 / 戒酒 names its verb.
std::string QuitSlot(std::string_view object) {
  if (object == "烟") return "抽";
  if (object == "游戏") return "玩";
  return "喝";
}

// The sentence as UTF-16 for ICU, with the byte offset of every UTF-16 unit (and one past the end).
struct Utf16Text {
  icu::UnicodeString text;
  std::vector<size_t> byte_at;  // size = text.length() + 1
};

Utf16Text ToUtf16(std::string_view text, Span span) {
  Utf16Text out;
  size_t pos = span.begin;
  while (pos < span.end) {
    char32_t cp = 0;
    size_t len = 0;
    DecodeUtf8(text, pos, &cp, &len);  // sentences hold valid UTF-8 only
    out.text.append(static_cast<UChar32>(cp));
    out.byte_at.push_back(pos);
    if (cp > 0xFFFF) out.byte_at.push_back(pos);
    pos += len;
  }
  out.byte_at.push_back(span.end);
  return out;
}

struct ZhSubject {
  SubjectKind kind = SubjectKind::kSpeaker;
  Span span;
  unsigned qualifiers = 0;
  bool explicit_subject = false;  // written out (我, 我妹妹, a name), not implied
};

class ChineseReader {
 public:
  ChineseReader(std::string_view text, const Sentence& sentence, const std::vector<Span>& times,
                std::vector<RawClaim>* out)
      : text_(text), times_(times), out_(out), u16_(ToUtf16(text, sentence.span)) {}

  void Run();

 private:
  int32_t length() const { return u16_.text.length(); }
  size_t Byte(int32_t i) const { return u16_.byte_at[static_cast<size_t>(i)]; }
  Span Bytes(int32_t begin, int32_t end) const { return {Byte(begin), Byte(end)}; }
  std::string_view Text(Span span) const { return SpanText(text_, span); }
  bool OverlapsTime(Span span) const {
    for (const Span& time : times_) {
      if (time.Overlaps(span)) return true;
    }
    return false;
  }
  bool IsClausePunct(UChar32 c) const {
    return c == u'，' || c == u',' || c == u'；' || c == u';' || c == u'、' || c == u'：' ||
           c == u':' || c == u'。' || c == u'！' || c == u'？' || c == u'!' || c == u'?' ||
           c == u'…' || c == u'\n';
  }
  // Reads [begin, end) clause by clause; `forced` (when set) is the subject of every clause.
  // Without it, a clause that names no subject goes on about the previous clause's when that was
  // someone else or could not be resolved ("我表哥毕业了，去了一家券商做研究员": the second clause is
  // his; "同事住在上海，去了一家券商": whose colleague is unknown, so neither clause is the speaker's).
  void ReadSegment(int32_t begin, int32_t end, const ZhSubject* forced);
  // The subject the clause goes on about (above), or the speaker's; *blocked when it is one that
  // could not be resolved. `previous` is what the clause before it was about, updated here.
  struct Previous {
    std::optional<ZhSubject> other;  // someone else named in a clause before
    bool blocked = false;            // a clause before named someone unresolved
  };
  void ReadClause(int32_t begin, int32_t end, const ZhSubject* forced, Previous* previous);
  ZhSubject FindSubject(int32_t begin, int32_t end, int32_t* subject_end, bool* blocked);
  Span CleanValue(Span value, bool keep_times) const;
  void Push(const ZhSubject& subject, std::string_view predicate, std::string slot, Span value,
            unsigned qualifiers, double confidence, Span clause);

  std::string_view text_;
  const std::vector<Span>& times_;
  std::vector<RawClaim>* out_;
  Utf16Text u16_;
};

Span ChineseReader::CleanValue(Span value, bool keep_times) const {
  static constexpr std::array<std::string_view, 17> kConjunctions = {
      "因为", "但是", "所以", "然后", "而且", "不过", "可是", "还有", "并且",
      "同时", "虽然", "如果", "因此", "于是", "结果", "感觉", "觉得"};
  static constexpr std::array<std::string_view, 9> kLeading = {
      "了", "过", "着", "一些", "一点", "很多", "好多", "不少", "一下"};
  static constexpr std::array<std::string_view, 18> kTrailing = {
      "了", "啦", "呢",   "吧",   "啊",   "呀",   "哦", "哈", "嘛",
      "喔", "哟", "的话", "一下", "而已", "罢了", "咯", "哇", "~"};
  static constexpr std::string_view kNumerals = "一两二三四五六七八九十几这那每";
  static constexpr std::string_view kClassifiers =
      "个只辆台条套部本家座匹头位件支把双张款份杯间所辆盆棵颗枚";
  std::string_view s = Text(value);
  size_t cut = s.size();
  for (std::string_view conjunction : kConjunctions) {
    size_t at = s.find(conjunction);
    if (at != std::string_view::npos && at > 0) cut = std::min(cut, at);
  }
  value.end = value.begin + cut;
  if (!keep_times) value = CutTimes(text_, value, times_);
  for (int round = 0; round < 4; ++round) {
    value = TrimSpan(text_, value);
    std::string_view v = Text(value);
    Span before = value;
    for (std::string_view lead : kLeading) {
      if (StartsWith(v, lead) && v.size() > lead.size()) {
        value.begin += lead.size();
        break;
      }
    }
    v = Text(value);
    // A numeral and a classifier: 一只猫 → 猫, 两个孩子 → 孩子, 3台电脑 → 电脑.
    size_t numeral = 0;
    if (v.size() >= 3 && kNumerals.find(v.substr(0, 3)) != std::string_view::npos &&
        kNumerals.find(v.substr(0, 3)) % 3 == 0) {
      numeral = 3;
    }
    while (numeral < v.size() && v[numeral] >= '0' && v[numeral] <= '9') ++numeral;
    if (numeral > 0 && v.size() >= numeral + 3 + 3) {
      std::string_view classifier = v.substr(numeral, 3);
      size_t at = kClassifiers.find(classifier);
      if (at != std::string_view::npos && at % 3 == 0) value.begin += numeral + 3;
    }
    v = Text(value);
    for (std::string_view trail : kTrailing) {
      if (EndsWith(v, trail) && v.size() > trail.size()) {
        value.end -= trail.size();
        break;
      }
    }
    // A trailing count: 健身房三次 → 健身房.
    v = Text(value);
    if (EndsWith(v, "次") && v.size() > 9) {
      std::string_view count = v.substr(v.size() - 6, 3);
      if (kNumerals.find(count) != std::string_view::npos) value.end -= 6;
    }
    if (value.begin == before.begin && value.end == before.end) break;
  }
  return TrimSpan(text_, value);
}

void ChineseReader::Push(const ZhSubject& subject, std::string_view predicate, std::string slot,
                         Span value, unsigned qualifiers, double confidence, Span clause) {
  RawClaim claim;
  claim.subject_kind = subject.kind;
  claim.subject = subject.span;
  claim.predicate = std::string(predicate);
  claim.slot = std::move(slot);
  claim.value = value;
  claim.qualifiers = qualifiers | subject.qualifiers;
  claim.clause = clause;
  claim.confidence = confidence - ((subject.qualifiers & kBitReported) ? 0.1 : 0.0);
  claim.chinese = true;
  // A done action: the aspect particle 了 / 过 right after the verb, just before the value
  // ("我5月4日去了苏州"), or a sentence-final 了 after it ("我5月4日去苏州了。"). Not 了 elsewhere
  // in the clause ("约好了5月4日去苏州", "为了…").
  if (value.begin > clause.begin && value.begin <= text_.size()) {
    std::string_view before = text_.substr(clause.begin, value.begin - clause.begin);
    claim.past_tense = (before.ends_with("了") && !before.ends_with("为了") && !before.ends_with("除了") &&
                        !before.ends_with("好了")) ||
                       before.ends_with("过");
  }
  if (!claim.past_tense && value.end < clause.end && clause.end <= text_.size()) {
    std::string_view after = text_.substr(value.end, clause.end - value.end);
    for (std::string_view mark : {"。", "！", "!", ".", "，", ",", " "}) {
      while (after.ends_with(mark)) after.remove_suffix(mark.size());
    }
    claim.past_tense = after == "了";
  }
  out_->push_back(std::move(claim));
}

ZhSubject ChineseReader::FindSubject(int32_t begin, int32_t end, int32_t* subject_end,
                                     bool* blocked) {
  ZhSubject subject;
  *subject_end = begin;
  *blocked = false;
  UErrorCode status = U_ZERO_ERROR;
  auto looking_at = [&](const icu::RegexPattern* re) -> std::unique_ptr<icu::RegexMatcher> {
    if (re == nullptr) return nullptr;
    UErrorCode st = U_ZERO_ERROR;
    std::unique_ptr<icu::RegexMatcher> m(re->matcher(u16_.text, st));
    if (U_FAILURE(st)) return nullptr;
    m->region(begin, end, st);
    if (U_FAILURE(st) || !m->lookingAt(st) || U_FAILURE(st)) return nullptr;
    return m;
  };
  if (auto m = looking_at(RelationSubject())) {
    int32_t name_start = m->start(3, status);
    const int32_t relation_end = m->end(1, status);
    if (U_SUCCESS(status) && name_start >= 0 && name_start == relation_end) {
      // No 叫 before it: a name only when it opens as one; else the words are the clause's.
      UErrorCode st = U_ZERO_ERROR;
      std::unique_ptr<icu::RegexMatcher> opens(NameStart()->matcher(u16_.text, st));
      if (U_SUCCESS(st)) opens->region(name_start, end, st);
      if (U_FAILURE(st) || !opens->lookingAt(st)) {
        subject.kind = SubjectKind::kRelative;
        subject.span = Bytes(m->start(1, status), relation_end);
        subject.explicit_subject = true;
        *subject_end = relation_end;
        if (U_FAILURE(status)) *subject_end = begin;
        return subject;
      }
    }
    if (U_SUCCESS(status) && name_start >= 0) {
      subject.kind = SubjectKind::kNamed;
      subject.span = Bytes(name_start, m->end(3, status));
    } else {
      status = U_ZERO_ERROR;
      subject.kind = SubjectKind::kRelative;
      subject.span = Bytes(m->start(1, status), m->end(1, status));
    }
    subject.explicit_subject = true;
    *subject_end = m->end(status);
    if (U_FAILURE(status)) *subject_end = begin;
    return subject;
  }
  if (looking_at(BlockedSubject())) {
    *blocked = true;
    return subject;
  }
  if (auto m = looking_at(LatinNameSubject())) {
    subject.kind = SubjectKind::kNamed;
    subject.span = Bytes(m->start(1, status), m->end(1, status));
    subject.explicit_subject = true;
    *subject_end = m->end(1, status);
    if (U_FAILURE(status)) *subject_end = begin;
    return subject;
  }
  if (auto m = looking_at(SpeakerSubject())) {
    subject.explicit_subject = true;
    *subject_end = m->end(status);
    if (U_FAILURE(status)) *subject_end = begin;
  }
  return subject;
}

void ChineseReader::ReadSegment(int32_t begin, int32_t end, const ZhSubject* forced) {
  int32_t clause = begin;
  Previous previous;
  for (int32_t i = begin; i <= end; ++i) {
    if (i == end || IsClausePunct(u16_.text.char32At(i))) {
      if (i > clause) ReadClause(clause, i, forced, &previous);
      clause = i + 1;
    }
  }
}

void ChineseReader::ReadClause(int32_t begin, int32_t end, const ZhSubject* forced, Previous* previous) {
  static const std::initializer_list<std::string_view> kPlanWords = {
      "打算", "准备", "计划", "想去", "想要",   "要去",   "将要", "将会", "会去", "下周",
      "下个", "明天", "明年", "后天", "下星期", "下礼拜", "下月", "以后", "将来"};
  static const std::initializer_list<std::string_view> kPastWords = {
      "以前", "曾经", "过去", "原来", "之前", "小时候", "那时候", "当年"};
  static const std::initializer_list<std::string_view> kTemporaryWords = {
      "暂时", "临时", "先换", "先用", "先改", "先去", "先住", "先试", "目前先", "这几天"};
  static const std::initializer_list<std::string_view> kHabitWords = {
      "每天", "每周", "每晚", "每个", "每年", "每次", "经常",
      "常常", "总是", "通常", "平时", "一般", "天天"};
  static const std::initializer_list<std::string_view> kActivities = {
      "went_to", "plans_to", "joined", "attended", "started", "finished", "doing", "did"};
  int32_t subject_end = begin;
  bool blocked = false;
  ZhSubject subject;
  if (forced != nullptr) {
    subject = *forced;
  } else {
    subject = FindSubject(begin, end, &subject_end, &blocked);
    if (blocked || subject.explicit_subject) {
      previous->blocked = blocked;
      previous->other.reset();
      if (!blocked && subject.kind != SubjectKind::kSpeaker) previous->other = subject;
    } else if (previous->blocked) {
      blocked = true;
    } else if (previous->other) {
      subject = *previous->other;
    }
  }
  Span clause = Bytes(begin, end);
  std::string_view clause_text = Text(clause);
  unsigned clause_quals = 0;
  if (HasAny(clause_text, kPastWords)) clause_quals |= kBitPast;
  if (HasAny(clause_text, kTemporaryWords)) clause_quals |= kBitTemporary;
  if (HasAny(clause_text, kHabitWords)) clause_quals |= kBitHabitual;
  bool planned_context = HasAny(clause_text, kPlanWords);

  std::vector<std::pair<int32_t, int32_t>> taken;  // matched ranges that block later rules
  size_t emitted_before = out_->size();
  for (const Rule& rule : Rules()) {
    const RuleSpec& spec = *rule.spec;
    bool relation = spec.kind == Kind::kRelation;
    if (blocked && !relation) continue;
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::RegexMatcher> m(rule.re->matcher(u16_.text, status));
    if (U_FAILURE(status)) continue;
    m->region(begin, end, status);
    while (U_SUCCESS(status) && m->find(status) && U_SUCCESS(status)) {
      int32_t ms = m->start(status);
      int32_t me = m->end(status);
      if (U_FAILURE(status) || me <= ms) break;
      int32_t g1s = m->groupCount() >= 1 ? m->start(1, status) : -1;
      int32_t g1e = m->groupCount() >= 1 ? m->end(1, status) : -1;
      int32_t g2s = m->groupCount() >= 2 ? m->start(2, status) : -1;
      int32_t g2e = m->groupCount() >= 2 ? m->end(2, status) : -1;
      if (U_FAILURE(status) || g1s < 0) continue;
      // The trigger must not be part of a time expression (去年 is not 去).
      int32_t trigger_end = g1s > ms ? g1s : std::min(me, ms + 1);
      if (OverlapsTime(Bytes(ms, trigger_end)) && spec.kind != Kind::kFavorite &&
          !spec.keep_times) {
        continue;
      }
      if (!relation) {
        bool overlaps = std::any_of(taken.begin(), taken.end(), [&](const auto& range) {
          return ms < range.second && range.first < me;
        });
        if (overlaps) continue;
      }
      std::string_view predicate = spec.predicate;
      std::string slot;
      Span value;
      unsigned quals = spec.qualifiers | clause_quals;
      switch (spec.kind) {
        case Kind::kRelation: {
          if (g2s < 0) continue;
          ZhSubject speaker;
          Push(speaker, "has_relation", std::string(Text(Bytes(g1s, g1e))), Bytes(g2s, g2e), 0,
               spec.confidence, clause);
          continue;
        }
        case Kind::kFavorite:
          if (g2s < 0) continue;
          slot = std::string(Text(CleanValue(Bytes(g1s, g1e), false)));
          value = CleanValue(Bytes(g2s, g2e), false);
          if (slot.empty()) continue;
          break;
        case Kind::kHabit:
          slot = std::string(Text(Bytes(g1s, g1e)));
          value = g2s >= 0 ? CleanValue(Bytes(g2s, g2e), false) : Span{};
          if (value.empty()) value = Bytes(g1s, g1e);
          break;
        case Kind::kQuitHabit:
          value = Bytes(g1s, g1e);
          slot = QuitSlot(Text(value));
          break;
        case Kind::kUses:
        case Kind::kUsesLexicon:
          value = CleanValue(Bytes(g1s, g1e), false);
          slot = UsesSlot(Text(value));
          if (spec.kind == Kind::kUsesLexicon && slot.empty()) continue;
          if (!slot.empty() && static_cast<unsigned char>(Text(value)[0]) < 0x80) {
            // "VS Code写代码" → "VS Code": a Latin name ends where the Chinese resumes.
            size_t at = 0;
            std::string_view v = Text(value);
            while (at < v.size() && static_cast<unsigned char>(v[at]) < 0x80) ++at;
            value = TrimSpan(text_, {value.begin, value.begin + at});
          }
          break;
        case Kind::kJob:
          value = CleanValue(Bytes(g1s, g1e), false);
          if (!LooksLikeJob(Text(value))) continue;
          break;
        case Kind::kGoBare:
          value = CleanValue(Bytes(g1s, g1e), false);
          if (planned_context) {
            predicate = "plans_to";
            quals |= kBitPlanned;
            value = CleanValue(Bytes(ms, g1e), false);
          }
          break;
        case Kind::kPlain:
          value = CleanValue(Bytes(g1s, g1e), spec.keep_times);
          break;
      }
      if (value.empty()) continue;
      if (predicate == "owns" &&
          HasAny(Text(value).substr(0, 12),
                 {"妹妹", "姐姐", "哥哥", "弟弟", "孩子", "儿子", "女儿", "朋友"})) {
        continue;  // 我有一个妹妹 is a relation, not a possession
      }
      // A negation just before the trigger: 我不住在…, 我还没去过…, 我不太喜欢….
      int32_t look_from = std::max(subject_end, ms - 3);
      if (look_from < ms && HasAny(Text(Bytes(look_from, ms)), {"不", "没", "别", "未"})) {
        quals ^= kBitNegated;
      }
      if (std::find(kActivities.begin(), kActivities.end(), predicate) != kActivities.end() &&
          planned_context && predicate != "went_to") {
        quals |= kBitPlanned;
      }
      if (predicate != "habit") quals &= ~kBitHabitual;
      Push(subject, predicate, std::move(slot), value, quals, spec.confidence, clause);
      taken.emplace_back(ms, std::max(me, g1e));
    }
  }
  if (blocked || out_->size() > emitted_before) {
    bool only_relations =
        std::all_of(out_->begin() + static_cast<std::ptrdiff_t>(emitted_before), out_->end(),
                    [](const RawClaim& c) { return c.predicate == "has_relation"; });
    if (blocked || !only_relations) return;
  }
  // Nothing matched: a clause with an explicit subject and a 了/过 is something the subject did
  // (我昨天画了一幅画 → did 画了一幅画).
  static constexpr std::array<std::string_view, 22> kSkip = {
      "刚刚", "刚才", "刚",   "已经", "终于", "也",   "还",   "又",   "都",   "就",   "才",
      "一起", "最近", "今天", "昨天", "前天", "上周", "周末", "其实", "真的", "确实", "们"};
  static constexpr std::array<std::string_view, 12> kAdjectival = {
      "太", "很", "好", "真", "挺", "非常", "特别", "有点", "比较", "越来越", "是", "的"};
  if (!subject.explicit_subject && !OverlapsTime(clause)) return;
  Span rest = CutTimes(text_, Bytes(subject_end, end), times_);
  for (bool again = true; again;) {
    again = false;
    rest = TrimSpan(text_, CutTimes(text_, rest, times_));
    for (std::string_view skip : kSkip) {
      if (StartsWith(Text(rest), skip) && rest.size() > skip.size()) {
        rest.begin += skip.size();
        again = true;
        break;
      }
    }
  }
  std::string_view r = Text(rest);
  if (r.size() < 6 || !HasAny(r, {"了", "过"})) return;
  for (std::string_view adjective : kAdjectival) {
    if (StartsWith(r, adjective)) return;
  }
  Span value = CleanValue(rest, false);
  if (value.size() < 6) return;
  Push(subject, "did", "", value, clause_quals & ~kBitHabitual, 0.55, clause);
}

void ChineseReader::Run() {
  int32_t n = length();
  if (n == 0) return;
  // Reported speech: "我朋友说他搬到了巴黎" — what follows the pronoun is about the reporter.
  const icu::RegexPattern* reported = ReportedSpeech();
  if (reported != nullptr) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::RegexMatcher> m(reported->matcher(u16_.text, status));
    if (U_SUCCESS(status) && m->find(status) && U_SUCCESS(status)) {
      int32_t say = m->start(status);
      int32_t after = m->end(status);
      int32_t clause = say;
      while (clause > 0 && !IsClausePunct(u16_.text.char32At(clause - 1))) --clause;
      int32_t subject_end = clause;
      bool blocked = false;
      ZhSubject reporter = FindSubject(clause, say, &subject_end, &blocked);
      if (reporter.kind == SubjectKind::kSpeaker && !blocked) {
        // A bare name before 说: 小梅告诉我她… (two or three Han characters).
        Span name = TrimSpan(text_, Bytes(clause, say));
        std::string_view name_text = Text(name);
        if (name_text.size() >= 6 && name_text.size() <= 9 && !HasAny(name_text, {"我", "你"})) {
          reporter.kind = SubjectKind::kNamed;
          reporter.span = name;
        }
      }
      if (U_SUCCESS(status) && !blocked && reporter.kind != SubjectKind::kSpeaker) {
        reporter.qualifiers |= kBitReported;
        ReadSegment(0, clause, nullptr);
        ReadSegment(clause, say, nullptr);
        ReadSegment(after, n, &reporter);
        return;
      }
    }
  }
  ReadSegment(0, n, nullptr);
}

}  // namespace

void ReadChinese(std::string_view text, const Sentence& sentence, const std::vector<Span>& times,
                 std::vector<RawClaim>* out) {
  ChineseReader reader(text, sentence, times, out);
  reader.Run();
}

}  // namespace engram::extraction::rules
