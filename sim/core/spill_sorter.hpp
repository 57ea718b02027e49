#pragma once
/** @file spill_sorter.hpp
 *  @brief External merge sort of plain records with bounded memory: records are buffered, each full buffer is
 *  sorted and written to an anonymous temporary file (a sorted run), and for_each() merges the runs in order.
 *
 *  Why: a large simulation records tens of millions of messages; keeping them all in memory until the end to sort
 *  them for comm.csv takes gigabytes. The order of the merged stream is exactly the order std::sort
 *  with the same comparator gives the whole set (records equal under the comparator may come in another order,
 *  as with std::sort itself), so the files rendered from it keep their bytes. */
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <queue>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <unistd.h>

namespace hulk {

/** @brief Sorts records of trivially copyable type T with comparator Less, spilling sorted runs to disk.
 *  Not thread-safe (SimGrid actors run in one thread). */
template <typename T, typename Less>
class SpillSorter {
  static_assert(std::is_trivially_copyable<T>::value, "records are written to disk as bytes");

 public:
  /** @param buffer_records records kept in memory before a run is spilled (memory ~ buffer_records x sizeof(T)),
   *  @param spill_dir folder of the temporary files (each is unlinked as soon as it is created, so nothing is left
   *  behind even if the process is killed); "" = $TMPDIR or /tmp. */
  explicit SpillSorter(std::size_t buffer_records = 1 << 20, std::string spill_dir = "", Less less = Less())
      : capacity_(std::max<std::size_t>(buffer_records, 1)), dir_(std::move(spill_dir)), less_(less) {}

  /** @brief Adds one record (spills a sorted run when the buffer is full). */
  void push(const T& record) {
    buffer_.push_back(record);
    if (buffer_.size() >= capacity_) spill();
    ++size_;
  }

  /** @brief Number of records pushed so far. */
  std::size_t size() const { return size_; }
  /** @brief Number of sorted runs written to disk so far. */
  std::size_t runs_on_disk() const { return runs_.size(); }

  /** @brief Calls `visit` on every record in sorted order, then forgets them all (the sorter is empty after).
   *  Memory during the merge: one block of records per run. */
  void drain(const std::function<void(const T&)>& visit) {
    std::sort(buffer_.begin(), buffer_.end(), less_);
    std::vector<Reader> readers;
    readers.reserve(runs_.size() + 1);
    for (Run& run : runs_) readers.emplace_back(run.file.get(), run.records, nullptr);
    readers.emplace_back(nullptr, buffer_.size(), buffer_.data());
    merge(readers, visit);
    clear();
  }

  /** @brief Most runs kept open at once: beyond, the runs on disk are merged into one (open files stay few). */
  static constexpr std::size_t kMaxRuns = 64;

 private:
  struct CloseFile {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  struct Run {
    std::unique_ptr<std::FILE, CloseFile> file;
    std::size_t records = 0;
  };

  /** Reads one run (from its file in blocks, or from the in-memory buffer) one record at a time. */
  class Reader {
   public:
    Reader(std::FILE* file, std::size_t records, const T* memory) : file_(file), left_(records), memory_(memory) {}
    /** Moves to the next record; false at the end of the run. */
    bool advance() {
      if (left_ == 0) return false;
      --left_;
      if (memory_) {
        current_ = *memory_++;
        return true;
      }
      if (pos_ == block_.size()) refill();
      current_ = block_[pos_++];
      return true;
    }
    const T& current() const { return current_; }

   private:
    void refill() {
      block_.resize(std::min<std::size_t>(left_ + 1, kBlockRecords));
      if (std::fread(block_.data(), sizeof(T), block_.size(), file_) != block_.size())
        throw std::runtime_error("reading back a spilled run of records failed: " + std::string(std::strerror(errno)));
      pos_ = 0;
    }
    static constexpr std::size_t kBlockRecords = 4096;
    std::FILE* file_;
    std::size_t left_;
    const T* memory_;
    std::vector<T> block_;
    std::size_t pos_ = 0;
    T current_{};
  };

  /** Visits the records of all readers in order. Ties go to the earlier reader, so records equal under Less keep
   *  the order of their runs. */
  void merge(std::vector<Reader>& readers, const std::function<void(const T&)>& visit) const {
    auto later = [this, &readers](int a, int b) {
      if (less_(readers[b].current(), readers[a].current())) return true;
      if (less_(readers[a].current(), readers[b].current())) return false;
      return a > b;
    };
    std::priority_queue<int, std::vector<int>, decltype(later)> heap(later);
    for (int i = 0; i < static_cast<int>(readers.size()); ++i)
      if (readers[i].advance()) heap.push(i);
    while (!heap.empty()) {
      const int i = heap.top();
      heap.pop();
      visit(readers[i].current());
      if (readers[i].advance()) heap.push(i);
    }
  }

  /** Merges every run on disk into one. */
  void compact() {
    std::vector<Reader> readers;
    readers.reserve(runs_.size());
    std::size_t records = 0;
    for (Run& run : runs_) {
      readers.emplace_back(run.file.get(), run.records, nullptr);
      records += run.records;
    }
    Run merged;
    merged.file.reset(anonymous_file());
    merged.records = records;
    std::vector<T> block;
    block.reserve(4096);
    auto flush = [&] {
      if (std::fwrite(block.data(), sizeof(T), block.size(), merged.file.get()) != block.size())
        throw std::runtime_error("merging sorted runs in " + folder() + " failed: " + std::strerror(errno));
      block.clear();
    };
    merge(readers, [&](const T& r) {
      block.push_back(r);
      if (block.size() == block.capacity()) flush();
    });
    flush();
    rewind(merged);
    runs_.clear();
    runs_.push_back(std::move(merged));
  }

  void rewind(Run& run) const {
    if (std::fflush(run.file.get()) != 0 || std::fseek(run.file.get(), 0, SEEK_SET) != 0)
      throw std::runtime_error("spilling sorted records to " + folder() + " failed: " + std::strerror(errno));
  }

  void spill() {
    std::sort(buffer_.begin(), buffer_.end(), less_);
    Run run;
    run.file.reset(anonymous_file());
    run.records = buffer_.size();
    if (std::fwrite(buffer_.data(), sizeof(T), buffer_.size(), run.file.get()) != buffer_.size())
      throw std::runtime_error("spilling sorted records to " + folder() + " failed: " + std::strerror(errno));
    rewind(run);
    runs_.push_back(std::move(run));
    buffer_.clear();
    if (runs_.size() >= kMaxRuns) compact();
  }

  std::string folder() const {
    if (!dir_.empty()) return dir_;
    const char* tmp = std::getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
  }

  /** A temporary file that has no name (created, then unlinked at once): the system reclaims it on close or exit. */
  std::FILE* anonymous_file() const {
    std::string path = folder() + "/.hulk-spill-XXXXXX";
    const int fd = ::mkstemp(path.data());
    if (fd < 0) throw std::runtime_error("cannot create a temporary file in " + folder() + ": " + std::strerror(errno));
    ::unlink(path.c_str());
    std::FILE* f = ::fdopen(fd, "w+b");
    if (!f) {
      ::close(fd);
      throw std::runtime_error("cannot open a temporary file in " + folder());
    }
    return f;
  }

  void clear() {
    std::vector<T>().swap(buffer_);
    runs_.clear();
    size_ = 0;
  }

  std::size_t capacity_;
  std::string dir_;
  Less less_;
  std::vector<T> buffer_;
  std::vector<Run> runs_;
  std::size_t size_ = 0;
};

}  // namespace hulk
