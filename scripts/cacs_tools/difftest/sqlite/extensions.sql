-- Virtual tables and extension functions: JSON (json_each, json_tree),
-- generate_series, FTS5, R*Tree, dbstat, pragma table-valued functions,
-- and the shell's own extensions (regexp, decimal, ieee754, the uint
-- collation, SHA-3).
.headers on
.mode list
SELECT json_object('a', 1, 'b', json_array(1, 2.5, 'x', NULL, json('true')), 'c', json_object('d', 'é')),
       json_extract('{"a":{"b":[10,20,{"c":30}]}}', '$.a.b[2].c', '$.a.b[#-1]'),
       json_set('{"a":1}', '$.b', 2, '$.a', json('[3]')), json_remove('[1,2,3,4]', '$[1]', '$[#-1]'),
       json_insert('{"a":1}', '$.a', 9, '$.z', 'new'), json_replace('{"a":1}', '$.a', 'r', '$.q', 0),
       json_patch('{"a":1,"b":{"c":2}}', '{"b":{"c":null,"d":4},"e":5}'), json_type('{"a":[1]}', '$.a'),
       json_array_length('[1,[2,3],4]'), json_valid('{"a":'), json_quote('q"uote'), '{"x":[1,2]}' -> '$.x',
       '{"x":[1,2]}' ->> '$.x[1]';
SELECT key, value, type, atom, id, parent, fullkey, path FROM json_each('{"a":1,"b":[2,3],"c":{"d":null}}');
SELECT key, type, fullkey, path FROM json_tree('{"a":1,"b":[2,{"x":[true,false]}],"c":"s"}') ORDER BY id;
CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
INSERT INTO docs SELECT i, json_object('id', i, 'tags', json_array('t' || (i % 5), 't' || (i % 7)),
                                       'score', i * 1.5, 'nested', json_object('even', i % 2 = 0)) FROM n;
SELECT j.value AS tag, count(*), sum(d.body ->> '$.score') FROM docs d, json_each(d.body, '$.tags') j
  GROUP BY tag ORDER BY tag;
SELECT json_group_array(id) FROM docs WHERE body ->> '$.nested.even' AND id < 20;
SELECT json_group_object(id, body ->> '$.score') FROM docs WHERE id % 17 = 0;
SELECT value, value * value FROM generate_series(1, 20, 3);
SELECT sum(value), count(*) FROM generate_series(1, 100000);
SELECT a.value, b.value FROM generate_series(1, 3) a JOIN generate_series(a.value, 4) b ORDER BY 1, 2;
-- FTS5: the tokenizer, the index and ranking
CREATE VIRTUAL TABLE ft USING fts5(title, body, tokenize = 'porter unicode61');
INSERT INTO ft(title, body) VALUES
  ('coroutines', 'Stackful coroutines switch stacks; stackless ones transform functions.'),
  ('calling conventions', 'A callee saves the registers its caller expects preserved.'),
  ('registers', 'Callee-saved registers are preserved across calls; caller-saved ones are not.'),
  ('switching', 'Switching between coroutines saves registers and switches the stack pointer.'),
  ('sqlite', 'SQLite is a C library that implements a small SQL database engine.');
SELECT title, highlight(ft, 1, '[', ']') FROM ft WHERE ft MATCH 'register*' ORDER BY rank;
SELECT title FROM ft WHERE ft MATCH 'switch NOT stackless' ORDER BY rowid;
SELECT title, snippet(ft, 1, '<', '>', '...', 4) FROM ft WHERE ft MATCH 'body:preserved' ORDER BY rowid;
SELECT title FROM ft WHERE ft MATCH 'NEAR(callee registers, 3)' ORDER BY rowid;
SELECT count(*) FROM ft WHERE ft MATCH 'title:c*';
INSERT INTO ft(ft) VALUES ('integrity-check');
-- R*Tree: boxes and spatial queries
CREATE VIRTUAL TABLE boxes USING rtree(id, x0, x1, y0, y1);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
INSERT INTO boxes SELECT i, (i * 37) % 100, (i * 37) % 100 + i % 7 + 1, (i * 53) % 100, (i * 53) % 100 + i % 5 + 1
  FROM n;
SELECT count(*), sum(id) FROM boxes WHERE x0 >= 20 AND x1 <= 40 AND y0 >= 10 AND y1 <= 60;
SELECT id FROM boxes WHERE x1 >= 50 AND x0 <= 51 AND y1 >= 50 AND y0 <= 51 ORDER BY id;
SELECT rtreecheck('boxes');
-- Schema introspection through table-valued pragmas, dbstat and bytecode
SELECT m.name, p.cid, p.name, p.type, p.pk FROM sqlite_schema m, pragma_table_info(m.name) p
  WHERE m.type = 'table' AND m.name IN ('docs', 'boxes') ORDER BY 1, 2;
SELECT name, count(*) FROM pragma_function_list WHERE name LIKE 'json%' GROUP BY name ORDER BY name;
SELECT name, sum(ncell) FROM dbstat WHERE name = 'docs' GROUP BY name;
-- The shell's extensions
SELECT 'abc123def' REGEXP '[0-9]+', regexp('^a.c', 'abcd'), 'xyz' REGEXP '^[a-w]+$';
SELECT decimal_add('0.1', '0.2'), decimal_mul('123456789.123456789', '987654321.987654321'),
       decimal_sub('1', '0.000000000000000000001'), decimal_cmp('2.50', '2.5'), decimal(' 007.1200 ');
SELECT decimal_sum(column1) FROM (VALUES ('0.1'), ('0.2'), ('1e3'), ('-5.55'));
SELECT ieee754(2.5), ieee754(-0.1), ieee754(1.5, 1), ieee754_mantissa(12.25), ieee754_exponent(12.25);
SELECT column1 FROM (VALUES ('x10'), ('x9'), ('x100'), ('x9a'), ('y1')) ORDER BY 1 COLLATE uint;
SELECT hex(sha3('hello')), hex(sha3('hello', 384)), hex(sha3(X'00', 224)), hex(sha3(NULL));
SELECT hex(sha3_query('SELECT id, body FROM docs ORDER BY id'));
