// --profile and --trace reports (see report.h).
#include "accel/run/report.h"

#include <cinttypes>
#include <cstdio>
#include <set>

namespace matfuse::accel {
namespace {

std::string fmt(const char* f, auto... args) {
  const int n = std::snprintf(nullptr, 0, f, args...);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::snprintf(out.data(), out.size() + 1, f, args...);
  return out;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    o += c;
  }
  return o;
}

}  // namespace

std::string profile_table(std::span<const EvaluationRecord> evals, double total_seconds) {
  std::string s = "--- matfuse profile: fusion groups ---\n";
  s += fmt("%4s  %-16s %12s %14s %14s  %-8s %10s  %-14s %s\n", "#", "fusion_kind", "elements",
           "bytes_read", "bytes_written", "provider", "time_ms", "kernel", "forced_by");
  int64_t kernels = 0, fallbacks = 0, bytes = 0, hits = 0;
  std::set<uint64_t> texts;
  double kernel_seconds = 0;
  int row = 0;
  for (const EvaluationRecord& e : evals) {
    for (const GroupRecord& g : e.groups) {
      ++row;
      // Kernel column: the first 8 hex digits of the canonical text's hash, "hit" when the same
      // text ran before in this process (compiled once, reused).
      const std::string kern =
          g.kernel_key ? fmt("%08" PRIx64 " %s", g.kernel_key >> 32, g.cache_hit ? "hit" : "new")
                       : std::string("-");
      if (g.kernel_key) texts.insert(g.kernel_key);
      hits += g.cache_hit;
      // Device groups: kernel time from CUDA events when timed, compile/cache source, and the
      // placement decision with its estimates.
      const double secs = g.device_seconds >= 0 ? g.device_seconds : g.seconds;
      std::string extra;
      if (!g.kernel_cache.empty())
        extra += fmt(" [kernel %s%s]", g.kernel_cache.c_str(),
                     g.compile_seconds > 0 ? fmt(" %.1f ms", g.compile_seconds * 1e3).c_str() : "");
      if (!g.placement.empty())
        extra += fmt(" [%s; est cpu %.3f ms, gpu %.3f ms]", g.placement.c_str(),
                     g.est_host_seconds * 1e3, g.est_device_seconds * 1e3);
      if (g.fast_math) extra += " [math fast]";
      if (!g.fallback.empty()) extra += " (eager: " + g.fallback + ")";
      s += fmt("%4d  %-16s %12" PRId64 " %14" PRId64 " %14" PRId64 "  %-8s %10.3f  %-14s %s%s\n",
               row, g.fusion_kind.c_str(), g.elements, g.bytes_read, g.bytes_written,
               g.provider.c_str(), secs * 1e3, kern.c_str(),
               std::string(sink_reason_name(e.reason)).c_str(), extra.c_str());
      if (g.provider == "eager") ++fallbacks;
      else ++kernels;
      bytes += g.bytes_read + g.bytes_written;
      kernel_seconds += secs;
    }
  }
  const double share = total_seconds > 0 ? 100.0 * kernel_seconds / total_seconds : 0.0;
  s += fmt("kernels run: %" PRId64 " (+%" PRId64 " eager fallback groups) in %zu evaluations; "
           "bytes moved: %.3f MB; time in kernels: %.3f s of %.3f s total (%.1f%%)\n",
           kernels, fallbacks, evals.size(), static_cast<double>(bytes) / 1e6, kernel_seconds,
           total_seconds, share);
  s += fmt("kernel texts: %zu distinct, %" PRId64 " cache hits\n", texts.size(), hits);
  return s;
}

std::string sync_summary(std::span<const SyncCount> syncs) {
  int64_t total = 0;
  std::string parts;
  for (const SyncCount& c : syncs) {
    total += c.count;
    if (!parts.empty()) parts += ", ";
    parts += fmt("%s by %s: %" PRId64, c.kind.c_str(),
                 std::string(sink_reason_name(c.reason)).c_str(), c.count);
  }
  std::string s = fmt("host synchronisations: %" PRId64, total);
  if (!parts.empty()) s += " (" + parts + ")";
  return s + "\n";
}

std::string trace_json(std::span<const EvaluationRecord> evals, double run_start, double run_end) {
  auto us = [](double sec) { return sec * 1e6; };
  std::string s = "{\"traceEvents\":[\n";
  s += "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"host\"}},\n";
  s += "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"gpu\"}},\n";
  s += fmt("{\"name\":\"interpreter\",\"cat\":\"interpreter\",\"ph\":\"X\",\"ts\":%.3f,"
           "\"dur\":%.3f,\"pid\":1,\"tid\":1}",
           us(run_start), us(run_end - run_start));
  for (const EvaluationRecord& e : evals) {
    const std::string reason(sink_reason_name(e.reason));
    s += fmt(",\n{\"name\":\"planning\",\"cat\":\"planner\",\"ph\":\"X\",\"ts\":%.3f,"
             "\"dur\":%.3f,\"pid\":1,\"tid\":1,\"args\":{\"forced_by\":\"%s\",\"groups\":%zu}}",
             us(e.start), us(e.plan_seconds), reason.c_str(), e.groups.size());
    for (const GroupRecord& g : e.groups) {
      s += fmt(",\n{\"name\":\"%s kernel\",\"cat\":\"kernel\",\"ph\":\"X\",\"ts\":%.3f,"
               "\"dur\":%.3f,\"pid\":1,\"tid\":1,\"args\":{\"fusion_kind\":\"%s\","
               "\"provider\":\"%s\",\"elements\":%" PRId64 ",\"bytes_read\":%" PRId64
               ",\"bytes_written\":%" PRId64 ",\"forced_by\":\"%s\",\"cache_hit\":%s,"
               "\"fallback\":\"%s\"}}",
               g.fusion_kind.c_str(), us(g.start), us(g.seconds), g.fusion_kind.c_str(),
               g.provider.c_str(), g.elements, g.bytes_read, g.bytes_written, reason.c_str(),
               g.cache_hit ? "true" : "false", json_escape(g.fallback).c_str());
      // Device track (tid 2): NVRTC compile, then the kernel's CUDA-event time. Both start at
      // the group's host start; the device runs asynchronously, so these spans show durations
      // on their own track rather than exact device timestamps.
      double t = g.start;
      if (g.compile_seconds > 0) {
        s += fmt(",\n{\"name\":\"nvrtc compile\",\"cat\":\"compile\",\"ph\":\"X\","
                 "\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,\"tid\":2,\"args\":{\"cache\":\"%s\"}}",
                 us(t), us(g.compile_seconds), g.kernel_cache.c_str());
        t += g.compile_seconds;
      }
      if (g.device_seconds >= 0)
        s += fmt(",\n{\"name\":\"%s (gpu)\",\"cat\":\"device\",\"ph\":\"X\",\"ts\":%.3f,"
                 "\"dur\":%.3f,\"pid\":1,\"tid\":2,\"args\":{\"upload_bytes\":%" PRId64
                 ",\"placement\":\"%s\"}}",
                 g.fusion_kind.c_str(), us(t), us(g.device_seconds), g.upload_bytes,
                 json_escape(g.placement).c_str());
    }
  }
  s += "\n],\"displayTimeUnit\":\"ms\"}\n";
  return s;
}

}  // namespace matfuse::accel
