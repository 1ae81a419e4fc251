-- EXPLAIN shows the requests a statement would send, without running writes
CREATE TABLE "App" (pk S HASH, sk S RANGE) GLOBAL INDEX "byEmail" (email S HASH);
INSERT INTO "App" VALUE {'pk': 'USER#1', 'sk': 'PROFILE', 'email': 'a@x.io', 'name': 'Ada'};
INSERT INTO "App" VALUE {'pk': 'USER#1', 'sk': 'ORDER#001', 'total': 12.50};
EXPLAIN SELECT name FROM "App" WHERE pk = 'USER#1' AND sk = 'PROFILE';
EXPLAIN SELECT * FROM "App" WHERE pk = 'USER#1' AND begins_with(sk, 'ORDER#') AND total > 10 ORDER BY sk DESC;
EXPLAIN SELECT * FROM "App" WHERE pk IN ['USER#1', 'USER#2'];
EXPLAIN SELECT email FROM "App"."byEmail" WHERE email = 'a@x.io';
EXPLAIN SCAN SELECT pk, sk FROM "App" WHERE total BETWEEN 1 AND 50 OR NOT attribute_exists(total);
EXPLAIN INSERT INTO "App" VALUE {'pk': 'USER#2', 'sk': 'PROFILE', 'order': 1};
EXPLAIN UPDATE "App" SET total = total + 1 REMOVE name WHERE pk = 'USER#1' AND sk = 'ORDER#001';
EXPLAIN DELETE FROM "App" WHERE pk = 'USER#1' AND sk = 'PROFILE' AND email = 'a@x.io';
EXPLAIN SCAN DELETE FROM "App" WHERE total > 100;
-- nothing was written: USER#2 is absent and both items are still there
SCAN SELECT pk, sk FROM "App";
-- EXPLAIN ANALYZE runs reads and reports what they did
EXPLAIN ANALYZE SELECT * FROM "App" WHERE pk = 'USER#1' AND begins_with(sk, 'ORDER#');
EXPLAIN ANALYZE SELECT * FROM "App" WHERE pk = 'USER#1' AND sk = 'PROFILE';
-- and refuses writes
EXPLAIN ANALYZE DELETE FROM "App" WHERE pk = 'USER#1' AND sk = 'PROFILE';
