#include "mcp/stdio.h"

#include <istream>
#include <ostream>
#include <string>

namespace engram::mcp {

void ServeStdio(Server& server, Connection& connection, std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    const Outcome outcome = server.HandleText(line, connection);
    if (outcome.body.empty()) continue;
    out << outcome.body << '\n';
    out.flush();
  }
}

}  // namespace engram::mcp
