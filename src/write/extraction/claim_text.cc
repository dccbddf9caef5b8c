#include "write/extraction/claim_text.h"

#include <algorithm>

#include "write/extraction/rules_english.h"

namespace engram::extraction {
namespace {

// "lives_in" → "lives in".
std::string Words(std::string p) {
  std::replace(p.begin(), p.end(), '_', ' ');
  return p;
}

}  // namespace

bool HasQualifier(const CandidateClaim& claim, const char* qualifier) {
  return std::find(claim.qualifiers.begin(), claim.qualifiers.end(), qualifier) !=
         claim.qualifiers.end();
}

// A readable English statement: "Lin lives in Hangzhou", "Lin no longer drinks beverage-X".
std::string EnglishStatement(const CandidateClaim& c, const std::string& s) {
  const std::string& v = c.value;
  const std::string& p = c.predicate;
  bool neg = HasQualifier(c, kQualNegated);
  bool past = HasQualifier(c, kQualPast);
  bool planned = HasQualifier(c, kQualPlanned);
  if (p == "name") return s + (neg ? "'s name is not " : "'s name is ") + v;
  if (p == "age") return s + (neg ? " is not " : " is ") + v + " years old";
  if (p == "birthday") return s + "'s birthday is " + v;
  if (p == "hometown") return s + (neg ? " is not from " : " is from ") + v;
  if (p == "lives_in") {
    if (neg) return s + " does not live in " + v;
    if (past) return s + " used to live in " + v;
    return s + (planned ? " plans to live in " : " lives in ") + v;
  }
  if (p == "job")
    return s + (neg ? " does not work as " : past ? " used to work as " : " works as ") + v;
  if (p == "employer") {
    return s + (neg ? " does not work at " : past ? " used to work at " : " works at ") + v;
  }
  if (p == "school") return s + (neg ? " does not study at " : " studies at ") + v;
  if (p == "likes") return s + (neg ? " dislikes " : past ? " used to like " : " likes ") + v;
  if (p == "prefers") return s + (neg ? " does not prefer " : " prefers ") + v;
  if (p == "favorite") return s + "'s favorite " + c.slot + " is " + v;
  if (p == "owns")
    return s + (neg ? " no longer owns " : planned ? " plans to get " : " owns ") + v;
  if (p == "has_relation") return s + "'s " + c.slot + " is " + v;
  if (p == "went_to") {
    if (neg) return s + " did not go to " + v;
    return s + (planned ? " plans to go to " : " went to ") + v;
  }
  if (p == "joined" || p == "attended" || p == "started" || p == "finished") {
    std::string base = p == "joined"     ? "join"
                       : p == "attended" ? "attend"
                       : p == "started"  ? "start"
                                         : "finish";
    if (neg) return s + " did not " + base + " " + v;
    if (planned) return s + " plans to " + base + " " + v;
    return s + " " + p + " " + v;
  }
  if (p == "plans_to") return s + (neg ? " does not plan to " : " plans to ") + v;
  if (p == "did") return s + (neg ? " did not " : " ") + v;
  if (p == "doing") return s + (neg ? " is not " : " is ") + v;
  if (p == "habit") {
    std::string object = v == c.slot ? "" : " " + v;
    if (neg) return s + " no longer " + rules::ThirdPersonSingular(c.slot) + object;
    if (past) return s + " used to " + c.slot + object;
    return s + " " + rules::ThirdPersonSingular(c.slot) + object;
  }
  if (p == "uses") {
    std::string text = s + (neg ? " does not use " : " uses ") + v;
    if (HasQualifier(c, kQualTemporary)) text += " for now";
    return text;
  }
  if (p == "status") return s + (neg ? " is not " : past ? " was " : " is ") + v;
  return s + " " + Words(p) + " " + v;
}

// A readable Chinese statement: "Lin 住在杭州", "小梅不再喝咖啡".
std::string ChineseStatement(const CandidateClaim& c, std::string s) {
  if (!s.empty() && static_cast<unsigned char>(s.back()) < 0x80) s += " ";
  const std::string& v = c.value;
  const std::string& p = c.predicate;
  bool neg = HasQualifier(c, kQualNegated);
  bool past = HasQualifier(c, kQualPast);
  bool planned = HasQualifier(c, kQualPlanned);
  if (p == "name") return s + (neg ? "不叫" : "叫") + v;
  if (p == "age") return s + v + "岁";
  if (p == "birthday") return s + "的生日是" + v;
  if (p == "hometown") return s + "来自" + v;
  if (p == "lives_in")
    return s + (neg ? "不住在" : past ? "以前住在" : planned ? "打算住在" : "住在") + v;
  if (p == "job") return s + (neg ? "不是" : "是") + v;
  if (p == "employer") return s + (neg ? "不在" : "在") + v + "工作";
  if (p == "school") return s + (neg ? "不在" : "在") + v + "上学";
  if (p == "likes") return s + (neg ? "不喜欢" : "喜欢") + v;
  if (p == "prefers") return s + "更喜欢" + v;
  if (p == "favorite") return s + "最喜欢的" + c.slot + "是" + v;
  if (p == "owns") return s + (neg ? "不再拥有" : "有") + v;
  if (p == "has_relation") return s + "的" + c.slot + "是" + v;
  if (p == "went_to") return s + (neg ? "没去" : planned ? "打算去" : "去了") + v;
  if (p == "joined") return s + (neg ? "没有加入" : "加入了") + v;
  if (p == "attended") return s + (neg ? "没有参加" : "参加了") + v;
  if (p == "started") return s + (neg ? "没有开始" : "开始") + v;
  if (p == "finished") return s + (neg ? "没有完成" : "完成了") + v;
  if (p == "plans_to") return s + (neg ? "不打算" : "打算") + v;
  if (p == "did") return s + (neg ? "没有" : "") + v;
  if (p == "doing") return s + "正在" + v;
  if (p == "habit") {
    std::string object = v == c.slot ? v : c.slot + v;
    return s + (neg ? "不再" : past ? "以前经常" : "经常") + object;
  }
  if (p == "uses")
    return s + (neg ? "不用" : "使用") + v + (HasQualifier(c, kQualTemporary) ? "（暂时）" : "");
  if (p == "status") return s + (neg ? "不是" : "") + v;
  return s + Words(p) + " " + v;
}


}  // namespace engram::extraction
