// api/groups.h — the capability groups, one file each (events.cc, recall.cc, claims.cc,
// forget.cc, admin.cc). Internal to api/: faces use api/registry.h.
#ifndef ENGRAM_API_GROUPS_H_
#define ENGRAM_API_GROUPS_H_

#include <vector>

#include "api/capability.h"

namespace engram::api {

std::vector<Capability> EventCapabilities();   // ingest_event, ingest_events, get_event
std::vector<Capability> RecallCapabilities();  // recall, feedback, list_sessions, search_sessions
std::vector<Capability> ClaimCapabilities();   // remember, list_claims, get_claim, explain_claim, ...
std::vector<Capability> ForgetCapabilities();  // forget, list_tombstones, unforget
std::vector<Capability> WorkingCapabilities();  // working_memory (docs/working.md)
// read_curated, write_curated, curated_snapshot, bind_curated (docs/curated.md)
std::vector<Capability> CuratedCapabilities();
// start_episode, add_episode_step, end_episode, set_episode_type, get_episode, list_episodes,
// distill_rules, list_rules, get_rule, recall_experience (docs/experience.md)
std::vector<Capability> ExperienceCapabilities();
std::vector<Capability> AdminCapabilities();   // stats, doctor, jobs, maintain, export, import, ...
// list_all_sessions, list_all_tombstones: the lists of every namespace, admin only (B27).
std::vector<Capability> AllNamespacesCapabilities();

// One page of list_sessions / list_tombstones (arguments limit, cursor; namespace unless
// all_namespaces; object_id for tombstones), shared with their every-namespace admin forms.
Result<Reply> ListSessionsPage(Engine& engine, const Args& args, bool all_namespaces);
Result<Reply> ListTombstonesPage(Engine& engine, const Args& args, bool all_namespaces);
OrderedJson SessionSchema();

}  // namespace engram::api

#endif  // ENGRAM_API_GROUPS_H_
