#include "util/sha256.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <vector>

namespace engram {
namespace {

std::string Hex(const unsigned char* data, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out(n * 2, '0');
  for (size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[data[i] >> 4];
    out[2 * i + 1] = kDigits[data[i] & 0xf];
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  // EVP_Digest fails only on allocation failure; an empty digest then never matches a stored one.
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) return "";
  return Hex(digest, length);
}

Result<std::string> RandomHex(int bytes) {
  std::vector<unsigned char> buf(static_cast<size_t>(bytes));
  if (RAND_bytes(buf.data(), bytes) != 1) return Error(Status::Internal("the random source failed"));
  return Hex(buf.data(), buf.size());
}

}  // namespace engram
