-- Social: access patterns. Load schema.sql first, then:
--   keyhole social.kh --patterns samples/social/patterns.sql

-- pattern: get a user's profile
-- rate: 400/s
-- The full primary key is known (USER#<username>, PROFILE): a GetItem, one item, 0.5 RCU.
SELECT * FROM "Social" WHERE PK = 'USER#alice' AND SK = 'PROFILE';

-- pattern: find a user by email
-- rate: 5/s
-- Login knows the email, not the username: GSI1PK = EMAIL#<email> on GSI1 finds the profile.
SELECT * FROM "Social"."GSI1" WHERE GSI1PK = 'EMAIL#erin.walsh@example.org';

-- pattern: get several users' profiles at once
-- rate: 200/s
-- The author names beside a feed: every key is known, so one BatchGetItem fetches them all
-- (up to 100 keys per request) instead of one GetItem each.
BatchGetItem {"RequestItems": {"Social": {"Keys": [
  {"PK": {"S": "USER#alice"}, "SK": {"S": "PROFILE"}},
  {"PK": {"S": "USER#bob"}, "SK": {"S": "PROFILE"}},
  {"PK": {"S": "USER#carol"}, "SK": {"S": "PROFILE"}}]}}};

-- pattern: posts of a user, newest first
-- rate: 300/s
-- One Query of the user's partition: begins_with(SK, 'POST#') skips the profile and the likes,
-- and the timestamp in the SK makes ORDER BY SK DESC newest first.
SELECT * FROM "Social" WHERE PK = 'USER#alice' AND begins_with(SK, 'POST#') ORDER BY SK DESC;

-- pattern: latest posts of a few users
-- rate: 100/s
-- IN over a few partition keys: one Query per user (here two), results concatenated.
SELECT * FROM "Social" WHERE PK IN ['USER#bob', 'USER#carol'] AND begins_with(SK, 'POST#');

-- pattern: get a post by its id
-- rate: 150/s
-- A shared link knows only the post id: GSI1PK = POST#<postId>, and GSI1SK = POST#<postId>
-- picks the post itself out of the likes that share its GSI1 partition.
SELECT * FROM "Social"."GSI1" WHERE GSI1PK = 'POST#t3v6qn' AND GSI1SK = 'POST#t3v6qn';

-- pattern: who liked a post
-- rate: 50/s
-- The same GSI1 partition, the Like items only. (Leave out the GSI1SK condition to get the
-- post and its likes in one Query.)
SELECT * FROM "Social"."GSI1" WHERE GSI1PK = 'POST#t3v6qn' AND begins_with(GSI1SK, 'LIKE#');

-- pattern: what a user liked
-- rate: 20/s
-- The other direction of the same Like items, on the base table: the liker's partition.
SELECT * FROM "Social" WHERE PK = 'USER#frank' AND begins_with(SK, 'LIKE#');

-- pattern: global timeline of one day, newest first
-- rate: 100/s
-- GSI2 keeps every post in the ALL_POSTS partition ordered by time; begins_with on the date
-- selects one day (a BETWEEN on two timestamps selects any window).
SELECT * FROM "Social"."GSI2" WHERE GSI2PK = 'ALL_POSTS' AND begins_with(GSI2SK, '2024-03-05')
  ORDER BY GSI2SK DESC;

-- pattern: members of an organization
-- rate: 2/s
SELECT * FROM "Social" WHERE PK = 'ORG#acme' AND begins_with(SK, 'MEMBER#');

-- pattern: members of a team
-- rate: 2/s
-- The trailing '#' after the team id keeps other teams whose id starts with 'platform' out.
SELECT * FROM "Social" WHERE PK = 'ORG#acme' AND begins_with(SK, 'TEAMMEMBER#platform#');

-- pattern: organizations and teams of a user
-- rate: 10/s
-- The inverted side of Membership and TeamMembership, on GSI1. begins_with(GSI1SK, 'ORG#')
-- would keep the organizations only.
SELECT * FROM "Social"."GSI1" WHERE GSI1PK = 'USER#carol';

-- pattern: publish a post
-- rate: 50/s
-- One PutItem, three writes: the table, GSI1 (the post by its id) and GSI2 (the timeline), each
-- 1 WCU for an item under 1 KB. Every post lands in GSI2's one ALL_POSTS partition, which takes
-- at most 1,000 WCU per second: `--plan` shows how close a given rate comes (samples/README.md,
-- "What does it cost?"). attribute_not_exists keeps a retried request from writing twice.
INSERT INTO "Social" VALUE {'PK': 'USER#dave', 'SK': 'POST#2024-03-07T08:00:00Z#k4p7rw',
  'Type': 'Post', 'username': 'dave', 'postId': 'k4p7rw', 'createdAt': '2024-03-07T08:00:00Z',
  'body': 'Three writes for one post: the table, GSI1 and GSI2.', 'likeCount': 0,
  'GSI1PK': 'POST#k4p7rw', 'GSI1SK': 'POST#k4p7rw', 'GSI2PK': 'ALL_POSTS',
  'GSI2SK': '2024-03-07T08:00:00Z#k4p7rw'};

-- refused: find users by display name
-- Why refused: displayName is not a key of the table or of any index, so DynamoDB would have
-- to read every item of the table (a Scan) and throw almost all of them away. Fix: look the
-- user up by username (GetItem) or by email (GSI1); if the app really searches by name, add
-- a GSI keyed on the name (or use a search service).
SELECT * FROM "Social" WHERE displayName = 'Bob Okafor';

-- refused: posts since a date without the timeline partition
-- Why refused: GSI2SK is only the sort key of GSI2; a Query must name one partition
-- (GSI2PK = ...) and a sort-key condition alone does not. Fix: add GSI2PK = 'ALL_POSTS', as in
-- "global timeline of one day": SELECT * FROM "Social"."GSI2" WHERE GSI2PK = 'ALL_POSTS'
-- AND GSI2SK >= '2024-03-05'.
SELECT * FROM "Social"."GSI2" WHERE GSI2SK >= '2024-03-05';

-- refused: likes of a post from the base table
-- Why refused: on the base table the likes of a post are spread over every liker's partition;
-- begins_with(SK, ...) without PK = ... names no partition, and postId is not a key there.
-- Fix: read GSI1, where the likes of a post share GSI1PK = POST#<postId> ("who liked a post").
SELECT * FROM "Social" WHERE begins_with(SK, 'LIKE#') AND postId = 't3v6qn';
