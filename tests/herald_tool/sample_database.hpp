#pragma once
// One small database that the tool's tests and its command-line tests share
// (see sample_database.cpp for its rows and the numbers they imply).
#include <cstdint>
#include <string>

#include "herald_db_fixture.hpp"

namespace herald::test_support {

// 2026-12-02T07:00:00Z in nanoseconds since the epoch.
inline constexpr std::int64_t kSampleT0 = 1'796'194'800'000'000'000;
inline constexpr std::int64_t kSecond = 1'000'000'000;

inline constexpr const char* kNotifications =
    "commerce.notifications.OnDomesticPayment";
inline constexpr const char* kAudit = "commerce.audit.Trail";
inline constexpr const char* kLedger = "billing.Ledger";

void fill_sample(HeraldDbFixture& db);

// The sample database, filled, in a directory of its own.
struct Sample {
  TempDir dir;
  std::string path = dir.file("sample.db");
  HeraldDbFixture fixture{path};
  Sample() { fill_sample(fixture); }
};

}  // namespace herald::test_support
