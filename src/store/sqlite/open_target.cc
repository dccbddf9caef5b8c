#include "store/sqlite/open_target.h"

#include <sqlite3.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace engram::sqlite {
namespace {

namespace fs = std::filesystem;

bool Writable(const std::string& path) { return ::access(path.c_str(), W_OK) == 0; }

std::string FolderOf(const std::string& path) {
  fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// The folder must exist; kCreate with create_folders makes it.
Status CheckFolder(const Options& options, const std::string& folder) {
  std::error_code ec;
  if (fs::is_directory(folder, ec)) return Status::Ok();
  if (fs::exists(folder, ec)) {
    return Status::InvalidArgument(fmt::format("\"{}\" (the folder of database \"{}\") is not a folder",
                                               folder, options.db_path));
  }
  if (options.open_mode != OpenMode::kCreate || !options.create_folders) {
    return Status::NotFound(fmt::format("folder \"{}\" of database \"{}\" does not exist", folder,
                                        options.db_path));
  }
  fs::create_directories(folder, ec);
  if (ec) return Status::IOError(fmt::format("cannot create folder \"{}\": {}", folder, ec.message()));
  return Status::Ok();
}

Status CheckWritable(const std::string& path, const std::string& folder, bool exists) {
  if (exists && !Writable(path)) {
    return Status::IOError(fmt::format(
        "database \"{}\" is read-only (no write permission): this call writes; reads still work", path));
  }
  if (!Writable(folder)) {
    return Status::IOError(fmt::format(
        "folder \"{}\" is read-only: writing needs {}-wal and {}-shm beside the database; reads still work",
        folder, path, path));
  }
  return Status::Ok();
}

}  // namespace

std::string SqliteUriPath(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out;
}

Status CheckSqliteHeader(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(fmt::format("cannot read \"{}\"", path));
  std::array<unsigned char, 100> header{};
  in.read(reinterpret_cast<char*>(header.data()), header.size());
  const auto got = static_cast<size_t>(in.gcount());
  const std::string left = "; not an engram database, left unchanged";
  if (got == 0) return Status::Corruption(fmt::format("\"{}\" is empty (0 bytes){}", path, left));
  static constexpr char kMagic[] = "SQLite format 3";  // 16 bytes with its NUL
  if (got < header.size() || std::memcmp(header.data(), kMagic, sizeof(kMagic)) != 0) {
    return Status::Corruption(fmt::format(
        "\"{}\" is not an SQLite database (it does not start with the SQLite header){}", path, left));
  }
  // Bytes 16-17: the page size, a power of two from 512 to 32768, or 1 for 65536.
  const unsigned page = (static_cast<unsigned>(header[16]) << 8) | header[17];
  if (page != 1 && (page < 512 || (page & (page - 1)) != 0)) {
    return Status::Corruption(fmt::format("\"{}\" has a damaged SQLite header (page size {}){}", path, page, left));
  }
  return Status::Ok();
}

Result<OpenTarget> ResolveOpenTarget(const Options& options) {
  const std::string& path = options.db_path;
  if (path.empty()) return Error(Status::InvalidArgument("database path is empty"));
  OpenTarget target;
  if (path == ":memory:") {
    target.filename = path;
    target.flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    return target;
  }
  const std::string folder = FolderOf(path);
  ENGRAM_RETURN_IF_ERROR(CheckFolder(options, folder));
  std::error_code ec;
  target.exists = fs::exists(path, ec);
  if (target.exists && fs::is_directory(path, ec)) {
    return Error(Status::InvalidArgument(fmt::format("database path \"{}\" is a folder", path)));
  }
  if (!target.exists && options.open_mode != OpenMode::kCreate) {
    return Error(Status::NotFound(fmt::format("no database at \"{}\"", path)));
  }
  if (target.exists) ENGRAM_RETURN_IF_ERROR(CheckSqliteHeader(path));
  target.filename = path;
  if (options.open_mode != OpenMode::kReadOnly) {
    ENGRAM_RETURN_IF_ERROR(CheckWritable(path, folder, target.exists));
    target.flags = SQLITE_OPEN_READWRITE | (target.exists ? 0 : SQLITE_OPEN_CREATE);
    return target;
  }
  target.read_only = true;
  target.flags = SQLITE_OPEN_READONLY;
  // immutable=1 takes no lock: safe only when no one can be writing the file. A folder this user
  // cannot write says nothing about other users, so the file itself must have no write bit either.
  const auto perms = fs::status(path, ec).permissions();
  const bool nobody_writes = !ec && (perms & (fs::perms::owner_write | fs::perms::group_write |
                                              fs::perms::others_write)) == fs::perms::none;
  if (nobody_writes && !Writable(folder) && !fs::exists(path + "-wal", ec) && !fs::exists(path + "-shm", ec)) {
    target.immutable = true;
    target.filename = "file:" + SqliteUriPath(path) + "?mode=ro&immutable=1";
    target.flags |= SQLITE_OPEN_URI;
  }
  return target;
}

}  // namespace engram::sqlite
