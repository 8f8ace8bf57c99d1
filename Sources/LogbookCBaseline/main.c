/*
 * logbook-c-baseline: the event-log benchmark's workload in plain C on LMDB, the floor the Swift
 * layers are measured against (`logbook-bench log` runs it and reports c_append_batched_eps,
 * c_scan_eps and c_point_read_eps).
 *
 * It reads the benchmark's own encoded records from a file (each a 4-byte little-endian length,
 * then the bytes, positions 1, 2, … in order), then, in an environment of its own opened as the
 * benchmark's raw baseline opens one (MDB_NOTLS, a named database, commits flushed to disk):
 *   1. appends them in batches of BATCH records, one transaction each, big-endian 8-byte position
 *      keys with MDB_APPEND;
 *   2. scans them with a cursor, touching each value's length;
 *   3. reads READS random positions (SplitMix64 from SEED), one read-only transaction each.
 * It prints one JSON object with the seconds of each phase, and exits non-zero with LMDB's own
 * message on any error.
 *
 * usage: logbook-c-baseline RECORDS ENV_DIR BATCH READS SEED
 */
#include <errno.h>
#include <lmdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(const char *what, int rc) {
    fprintf(stderr, "logbook-c-baseline: %s: %s\n", what, rc > 0 && rc < 1000 ? strerror(rc) : mdb_strerror(rc));
    exit(1);
}

#define CHECK(call) do { int rc_ = (call); if (rc_ != 0) fail(#call, rc_); } while (0)

static void big_endian(uint64_t value, unsigned char out[8]) {
    for (int i = 7; i >= 0; i--) { out[i] = (unsigned char)(value & 0xff); value >>= 8; }
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: logbook-c-baseline RECORDS ENV_DIR BATCH READS SEED\n");
        return 2;
    }
    const char *records_path = argv[1], *env_path = argv[2];
    long batch = atol(argv[3]), reads = atol(argv[4]);
    uint64_t seed = strtoull(argv[5], NULL, 10);
    if (batch < 1 || reads < 0) { fprintf(stderr, "logbook-c-baseline: BATCH must be at least 1, READS at least 0\n"); return 2; }

    /* The records, whole, in memory: reading the file is not measured. */
    FILE *file = fopen(records_path, "rb");
    if (!file) fail(records_path, errno);
    if (fseek(file, 0, SEEK_END) != 0) fail(records_path, errno);
    long size = ftell(file);
    rewind(file);
    unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) fail(records_path, errno ? errno : EIO);
    fclose(file);
    size_t count = 0, capacity = 1 << 20;
    size_t *offsets = malloc(capacity * sizeof(size_t));
    uint32_t *lengths = malloc(capacity * sizeof(uint32_t));
    for (size_t at = 0; at + 4 <= (size_t)size;) {
        uint32_t length = (uint32_t)bytes[at] | (uint32_t)bytes[at + 1] << 8 | (uint32_t)bytes[at + 2] << 16 | (uint32_t)bytes[at + 3] << 24;
        if (at + 4 + length > (size_t)size) { fprintf(stderr, "logbook-c-baseline: %s is truncated\n", records_path); return 1; }
        if (count == capacity) {
            capacity *= 2;
            offsets = realloc(offsets, capacity * sizeof(size_t));
            lengths = realloc(lengths, capacity * sizeof(uint32_t));
        }
        if (!offsets || !lengths) fail("realloc", ENOMEM);
        offsets[count] = at + 4;
        lengths[count] = length;
        count++;
        at += 4 + (size_t)length;
    }

    MDB_env *env;
    MDB_dbi dbi;
    MDB_txn *txn;
    CHECK(mdb_env_create(&env));
    CHECK(mdb_env_set_mapsize(env, (size_t)1 << 30));
    CHECK(mdb_env_set_maxdbs(env, 32));
    CHECK(mdb_env_set_maxreaders(env, 510));
    CHECK(mdb_env_open(env, env_path, MDB_NOTLS, 0644));
    CHECK(mdb_txn_begin(env, NULL, 0, &txn));
    CHECK(mdb_dbi_open(txn, "events", MDB_CREATE, &dbi));
    CHECK(mdb_txn_commit(txn));

    unsigned char key_bytes[8];
    MDB_val key = {8, key_bytes}, value;
    double start = now_seconds();
    for (size_t first = 0; first < count; first += (size_t)batch) {
        size_t end = first + (size_t)batch < count ? first + (size_t)batch : count;
        CHECK(mdb_txn_begin(env, NULL, 0, &txn));
        for (size_t n = first; n < end; n++) {
            big_endian((uint64_t)n + 1, key_bytes);
            value.mv_size = lengths[n];
            value.mv_data = bytes + offsets[n];
            CHECK(mdb_put(txn, dbi, &key, &value, MDB_APPEND));
        }
        CHECK(mdb_txn_commit(txn));
    }
    double append_seconds = now_seconds() - start;

    MDB_cursor *cursor;
    size_t scanned = 0, scanned_bytes = 0;
    start = now_seconds();
    CHECK(mdb_txn_begin(env, NULL, MDB_RDONLY, &txn));
    CHECK(mdb_cursor_open(txn, dbi, &cursor));
    int rc = mdb_cursor_get(cursor, &key, &value, MDB_FIRST);
    while (rc == 0) {
        scanned_bytes += value.mv_size;
        scanned++;
        rc = mdb_cursor_get(cursor, &key, &value, MDB_NEXT);
    }
    if (rc != MDB_NOTFOUND) fail("mdb_cursor_get", rc);
    mdb_cursor_close(cursor);
    mdb_txn_abort(txn);
    double scan_seconds = now_seconds() - start;

    uint64_t state = seed;
    size_t found_bytes = 0;
    start = now_seconds();
    for (long i = 0; i < reads && count > 0; i++) {
        big_endian(splitmix64(&state) % count + 1, key_bytes);
        key.mv_size = 8;
        key.mv_data = key_bytes;
        CHECK(mdb_txn_begin(env, NULL, MDB_RDONLY, &txn));
        CHECK(mdb_get(txn, dbi, &key, &value));
        found_bytes += value.mv_size;
        mdb_txn_abort(txn);
    }
    double point_seconds = now_seconds() - start;

    mdb_env_close(env);
    if (scanned != count || (reads > 0 && count > 0 && found_bytes == 0) || (count > 0 && scanned_bytes == 0)) {
        fprintf(stderr, "logbook-c-baseline: scanned %zu of %zu records\n", scanned, count);
        return 1;
    }
    printf("{\"records\":%zu,\"append_seconds\":%.9f,\"scanned\":%zu,\"scan_seconds\":%.9f,\"point_reads\":%ld,\"point_seconds\":%.9f}\n",
           count, append_seconds, scanned, scan_seconds, reads, point_seconds);
    free(offsets);
    free(lengths);
    free(bytes);
    return 0;
}
