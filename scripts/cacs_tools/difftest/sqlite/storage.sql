-- A database file through the unix VFS: journal modes, transactions,
-- savepoints and rollbacks, big rows on overflow pages, VACUUM, ATTACH,
-- integrity checks, the shell's .dump and .sha3sum.
.headers on
.mode list
.open storage.db
PRAGMA page_size = 1024;
PRAGMA journal_mode = DELETE;
CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT UNIQUE, v BLOB);
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO t SELECT i, printf('key-%05d', (i * 7919) % 2003), zeroblob(i % 97) FROM n;
COMMIT;
SELECT count(*), sum(length(v)), min(k), max(k) FROM t;
BEGIN;
DELETE FROM t WHERE id % 3 = 0;
SELECT count(*) FROM t;
ROLLBACK;
SELECT count(*) FROM t;
SAVEPOINT a;
INSERT INTO t(k, v) VALUES ('sp-a', X'0102');
SAVEPOINT b;
UPDATE t SET v = X'ff' WHERE id < 100;
SELECT count(*) FROM t WHERE v = X'ff';
ROLLBACK TO b;
SELECT count(*) FROM t WHERE v = X'ff';
SAVEPOINT c;
DELETE FROM t WHERE k LIKE 'key-00%';
RELEASE c;
ROLLBACK TO a;
SAVEPOINT d;
INSERT INTO t(k, v) VALUES ('sp-d', X'03');
RELEASE a;
SELECT count(*), group_concat(k) FILTER (WHERE k LIKE 'sp-%') FROM t;
INSERT INTO t(k) VALUES ('key-00001');
BEGIN;
INSERT INTO t(k) VALUES ('in-txn');
INSERT INTO t(k) VALUES ('key-00002');
COMMIT;
SELECT count(*) FROM t WHERE k = 'in-txn';
-- Rows larger than a page: overflow chains
CREATE TABLE big(id INTEGER PRIMARY KEY, data TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
INSERT INTO big SELECT i, replace(printf('%.*c', i * 200, 'x'), 'x', char(97 + i % 26)) FROM n;
SELECT sum(length(data)), hex(sha3(group_concat(data, ''))) FROM (SELECT data FROM big ORDER BY id);
UPDATE big SET data = substr(data, 1, 10) WHERE id % 2 = 0;
DELETE FROM big WHERE id % 5 = 0;
PRAGMA freelist_count;
VACUUM;
PRAGMA freelist_count;
PRAGMA page_count;
PRAGMA integrity_check;
-- WAL
PRAGMA journal_mode = WAL;
BEGIN;
UPDATE t SET v = X'aa' WHERE id % 10 = 1;
SAVEPOINT w;
DELETE FROM t WHERE id > 1500;
ROLLBACK TO w;
COMMIT;
SELECT count(*), count(*) FILTER (WHERE v = X'aa') FROM t;
PRAGMA wal_checkpoint(TRUNCATE);
PRAGMA journal_mode = DELETE;
-- A second database
ATTACH 'other.db' AS other;
CREATE TABLE other.o(id INTEGER PRIMARY KEY, tid INTEGER, note TEXT);
INSERT INTO other.o SELECT id, id * 2, 'o' || id FROM t WHERE id < 50;
SELECT count(*), sum(t.id) FROM t JOIN other.o ON o.tid = t.id;
BEGIN;
INSERT INTO other.o VALUES (1000, 1, 'x');
DELETE FROM main.t WHERE id = 1;
ROLLBACK;
SELECT (SELECT count(*) FROM other.o), (SELECT count(*) FROM t WHERE id = 1);
DETACH other;
PRAGMA integrity_check;
PRAGMA foreign_key_check;
.sha3sum
CREATE TABLE small(a, b TEXT, c REAL);
INSERT INTO small VALUES (1, 'it''s', 2.5), (NULL, X'41', -0.0), ('t', '', 1e100);
CREATE INDEX small_b ON small(b);
.dump small
.schema t
