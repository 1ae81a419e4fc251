-- a small single-table model
CREATE TABLE "App" (pk S HASH, sk S RANGE) GLOBAL INDEX "byEmail" (email S HASH);
INSERT INTO "App" VALUE {'pk': 'USER#1', 'sk': 'PROFILE', 'email': 'a@x.io', 'name': 'Ada'};
INSERT INTO "App" VALUE {'pk': 'USER#1', 'sk': 'ORDER#001', 'total': 12.50};
INSERT INTO "App" VALUE {'pk': 'USER#1', 'sk': 'ORDER#002', 'total': 99};
SELECT * FROM "App" WHERE pk = 'USER#1' AND begins_with(sk, 'ORDER#') ORDER BY sk DESC;
SELECT name FROM "App" WHERE pk = 'USER#1' AND sk = 'PROFILE';
SELECT * FROM "App"."byEmail" WHERE email = 'a@x.io';
UPDATE "App" SET total = total + 1 WHERE pk = 'USER#1' AND sk = 'ORDER#002' RETURNING ALL NEW *;
SCAN SELECT pk, sk FROM "App" WHERE total > 50;
SHOW TABLES;
-- refused: not key-addressable without SCAN
SELECT * FROM "App" WHERE total > 50;
-- DynamoDB's duplicate-key error for INSERT
INSERT INTO "App" VALUE {'pk': 'USER#1', 'sk': 'PROFILE'};
-- a parse error shows its line and a caret
SELECT * FROM "App" WHERE pk = 'USER#1' AND
  sk = = 'x';
-- the API form
GetItem {"TableName": "App", "Key": {"pk": {"S": "USER#1"}, "sk": {"S": "PROFILE"}}, "ProjectionExpression": "email"};
