# Compiles data/lexicon/*.tsv into the library as generated source (lexicon_data.cc), so that the
# installed binary and the tests need no data files at run time. Re-runs when a file changes.
file(GLOB ENGRAM_LEXICON_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/data/lexicon/*.tsv)
set(ENGRAM_LEXICON_ENTRIES "")
foreach(lexicon_file ${ENGRAM_LEXICON_FILES})
  get_filename_component(lexicon_name ${lexicon_file} NAME)
  file(READ ${lexicon_file} lexicon_text)
  string(APPEND ENGRAM_LEXICON_ENTRIES
         "      {\"${lexicon_name}\", R\"engram_lexicon(${lexicon_text})engram_lexicon\"},\n")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${lexicon_file})
endforeach()
set(ENGRAM_LEXICON_SOURCE ${CMAKE_BINARY_DIR}/generated/lexicon_data.cc)
configure_file(${PROJECT_SOURCE_DIR}/cmake/lexicon_data.cc.in ${ENGRAM_LEXICON_SOURCE} @ONLY)
