// text/speaker_reference.h — a question that names the speaker as "the user" asks what "I" and
// "my" ask. Agents recall about whom they talk to in the third person ("Where does the user live
// now?", "What is the user's job?"); the events hold "I" and "my", and every claim about the
// speaker holds the word "user" (its subject), so the word would favour any claim over the turn that
// changed it and would hide that the question is about the speaker (text/person_topic.h
// kSpeakerTopic). 用户 the same, where it opens the question or a clause and no noun of a thing
// follows it (not 用户中心服务, 用户表, 老用户).
//
// Thread safety: pure.
#ifndef ENGRAM_TEXT_SPEAKER_REFERENCE_H_
#define ENGRAM_TEXT_SPEAKER_REFERENCE_H_

#include <string>
#include <string_view>

namespace engram::text {

// `question` with "the user's" (also "the user’s") written "my" and "the user" written "I",
// matched as whole words in any case ("The user", "THE USER"), and 用户 as above written 我; other
// text byte for byte ("a user", "the users", "the user table": a noun of a thing follows). Pure.
std::string SpeakerInTheFirstPerson(std::string_view question);

}  // namespace engram::text

#endif  // ENGRAM_TEXT_SPEAKER_REFERENCE_H_
