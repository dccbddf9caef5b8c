// text/person_topic.h — how the topics of a statement (RecallContext::topics_of) name who it is
// about: kPersonTopic and the relation word through which the speaker names someone ("@brother"
// for "my brother quit his job"), and kSpeakerTopic when it speaks of the speaker. A header of
// its own so that the writer that reads topics (write/extraction/statement_topics.h) and recall
// that compares them agree without depending on each other.
#ifndef ENGRAM_TEXT_PERSON_TOPIC_H_
#define ENGRAM_TEXT_PERSON_TOPIC_H_

#include <string_view>

namespace engram::text {

inline constexpr char kPersonTopic = '@';

// The topic kPersonTopic alone: the statement speaks of the speaker (a first-person word, or a
// Chinese statement none of whose clauses opens with someone else).
inline constexpr std::string_view kSpeakerTopic = "@";

// True for kSpeakerTopic and every person's topic: they name who, not what.
inline bool IsWhoTopic(std::string_view topic) { return !topic.empty() && topic[0] == kPersonTopic; }
// True for a person named through the speaker ("@brother"), not the speaker.
inline bool IsOtherPersonTopic(std::string_view topic) { return topic.size() > 1 && topic[0] == kPersonTopic; }

}  // namespace engram::text

#endif  // ENGRAM_TEXT_PERSON_TOPIC_H_
