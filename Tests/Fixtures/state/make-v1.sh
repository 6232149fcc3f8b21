#!/bin/sh
# Writes the state files of format version 1 — the journal and the cache index exactly as every build before
# versions were kept made them (user_version 0, the tables of main at eb46cf3) — with one record of each kind,
# for the migration tests (StateMigrationTests). Rerun only to change the records; never to change the layout.
set -eu
cd "$(dirname "$0")"
rm -rf journal-v1.sqlite cache-v1
sqlite3 journal-v1.sqlite <<'SQL'
PRAGMA journal_mode=WAL;
CREATE TABLE IF NOT EXISTS downloads (
    destination TEXT PRIMARY KEY, url TEXT NOT NULL, temp_path TEXT NOT NULL,
    etag TEXT, last_modified TEXT, total INTEGER, boot_id TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS download_segments (
    destination TEXT NOT NULL, idx INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0, synced INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (destination, idx));
CREATE TABLE IF NOT EXISTS uploads (
    key TEXT PRIMARY KEY, local_path TEXT NOT NULL, label TEXT NOT NULL, target TEXT NOT NULL,
    fingerprint TEXT NOT NULL, parts TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS queued_writes (
    id INTEGER PRIMARY KEY AUTOINCREMENT, created REAL NOT NULL, write TEXT NOT NULL,
    state TEXT NOT NULL, note TEXT);
INSERT INTO downloads VALUES ('/tmp/big.bin', 'http://127.0.0.1:1/api/files/raw/home/big.bin', '/tmp/.big.bin.officer-download',
    '"v1"', NULL, 1000, 'boot', 1700000000.0);
INSERT INTO download_segments VALUES ('/tmp/big.bin', 0, 0, 499, 200, 100), ('/tmp/big.bin', 1, 500, 999, 0, 0);
INSERT INTO queued_writes (created, write, state) VALUES
    (1700000000.0, '{"recursive":false,"root":"home","kind":"mkdir","overwrite":false,"parents":false,"path":"/queued","expectations":[]}', 'pending');
PRAGMA wal_checkpoint(TRUNCATE);
SQL
mkdir -p cache-v1/objects/ab cache-v1/tmp
printf 'cached body of version one\n' > cache-v1/objects/ab/abcdef0123456789abcdef0123456789
sqlite3 cache-v1/index.sqlite <<'SQL'
PRAGMA journal_mode=WAL;
BEGIN;
CREATE TABLE IF NOT EXISTS entries (
    server TEXT NOT NULL, root TEXT NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL,
    version TEXT NOT NULL, size INTEGER NOT NULL, file TEXT NOT NULL,
    created REAL NOT NULL, accessed REAL NOT NULL, seq INTEGER NOT NULL, expires REAL,
    pinned INTEGER NOT NULL DEFAULT 0, metadata TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (server, root, path, kind));
CREATE INDEX IF NOT EXISTS entries_lru ON entries (pinned, seq);
CREATE INDEX IF NOT EXISTS entries_expiry ON entries (expires) WHERE expires IS NOT NULL;
CREATE TABLE IF NOT EXISTS totals (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL,
    bytes INTEGER NOT NULL, pinned_bytes INTEGER NOT NULL, clock INTEGER NOT NULL);
INSERT OR IGNORE INTO totals VALUES (1, 0, 0, 0, 0);
CREATE TRIGGER IF NOT EXISTS entries_added AFTER INSERT ON entries BEGIN
    UPDATE totals SET count = count + 1, bytes = bytes + NEW.size,
        pinned_bytes = pinned_bytes + NEW.pinned * NEW.size WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS entries_removed AFTER DELETE ON entries BEGIN
    UPDATE totals SET count = count - 1, bytes = bytes - OLD.size,
        pinned_bytes = pinned_bytes - OLD.pinned * OLD.size WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS entries_changed AFTER UPDATE OF size, pinned ON entries BEGIN
    UPDATE totals SET bytes = bytes + NEW.size - OLD.size,
        pinned_bytes = pinned_bytes + NEW.pinned * NEW.size - OLD.pinned * OLD.size WHERE id = 1; END;
-- The file column is absolute; the tests put their copy's folder in place of @CACHE@.
INSERT INTO entries VALUES ('http://127.0.0.1:1#user', 'home', '/notes.txt', 'body', '"e1"', 27,
    '@CACHE@/objects/ab/abcdef0123456789abcdef0123456789', 1700000000.0, 1700000000.0, 1, NULL, 1, '{}');
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
SQL
rm -f journal-v1.sqlite-wal journal-v1.sqlite-shm cache-v1/index.sqlite-wal cache-v1/index.sqlite-shm
