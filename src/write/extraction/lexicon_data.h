// write/extraction/lexicon_data.h — the text of data/lexicon/*.tsv, compiled into the library by
// CMake (cmake/EmbedLexicon.cmake). Lexicon (lexicon.h) parses it; nothing else should read it.
#ifndef ENGRAM_WRITE_EXTRACTION_LEXICON_DATA_H_
#define ENGRAM_WRITE_EXTRACTION_LEXICON_DATA_H_

#include <string_view>
#include <vector>

namespace engram::extraction {

struct LexiconFile {
  std::string_view name;  // "markers.tsv"
  std::string_view text;  // the file, byte for byte
};

// Every file of data/lexicon/, in name order. Thread-safe (an immutable static).
const std::vector<LexiconFile>& LexiconFiles();

}  // namespace engram::extraction

#endif  // ENGRAM_WRITE_EXTRACTION_LEXICON_DATA_H_
