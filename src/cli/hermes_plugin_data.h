// cli/hermes_plugin_data.h — the files of the Hermes memory provider plugin (integrations/hermes/),
// compiled into the `engram` command by CMake (cmake/EmbedHermesPlugin.cmake) for `engram hermes
// install`. Nothing else should read them.
#ifndef ENGRAM_CLI_HERMES_PLUGIN_DATA_H_
#define ENGRAM_CLI_HERMES_PLUGIN_DATA_H_

#include <string_view>
#include <vector>

namespace engram::cli {

struct HermesPluginFile {
  std::string_view path;  // relative to the plugin folder, '/'-separated: "core/journal.py"
  std::string_view text;  // the file, byte for byte
};

// Every file of integrations/hermes/ (no __pycache__, no dot files), in path order. Thread-safe (an
// immutable static).
const std::vector<HermesPluginFile>& HermesPluginFiles();

}  // namespace engram::cli

#endif  // ENGRAM_CLI_HERMES_PLUGIN_DATA_H_
