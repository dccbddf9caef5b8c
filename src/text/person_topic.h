// text/person_topic.h — how the topics of a statement (RecallContext::topics_of) name a person:
// kPersonTopic and the relation word through which the speaker names them ("@brother" for "my
// brother quit his job"). A header of its own so that the writer that reads topics
// (write/extraction/statement_topics.h) and recall that compares them agree without depending on
// each other.
#ifndef ENGRAM_TEXT_PERSON_TOPIC_H_
#define ENGRAM_TEXT_PERSON_TOPIC_H_

namespace engram::text {

inline constexpr char kPersonTopic = '@';

}  // namespace engram::text

#endif  // ENGRAM_TEXT_PERSON_TOPIC_H_
