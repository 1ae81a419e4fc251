-- Movies: access patterns. Load schema.sql first, then:
--   keyhole movies.kh --patterns samples/movies/patterns.sql

-- pattern: get a movie's details
-- rate: 500/s
-- The movie's own item: both keys known (MOVIE#<id> / MOVIE#<id>), so a GetItem.
SELECT * FROM "Movies" WHERE PK = 'MOVIE#tt0137523' AND SK = 'MOVIE#tt0137523';

-- pattern: get a movie and its cast
-- rate: 200/s
-- The whole item collection of the movie: the four roles, then the movie item.
SELECT * FROM "Movies" WHERE PK = 'MOVIE#tt0114369';

-- pattern: get the cast of a movie
-- rate: 100/s
-- Only the roles: their sort keys all start with ACTOR#.
SELECT * FROM "Movies" WHERE PK = 'MOVIE#tt0240772' AND begins_with(SK, 'ACTOR#');

-- pattern: get the leads of a movie
-- rate: 50/s
-- billing is not a key, so it is a filter on the cast Query: 4 roles read, 2 returned. Fine
-- for a cast of a few items; for thousands, put the billing in the sort key instead.
SELECT * FROM "Movies" WHERE PK = 'MOVIE#tt0240772' AND begins_with(SK, 'ACTOR#') AND billing <= 2;

-- pattern: get an actor's details
-- rate: 150/s
SELECT * FROM "Movies" WHERE PK = 'ACTOR#nm0000151' AND SK = 'ACTOR#nm0000151';

-- pattern: did an actor play in a movie
-- rate: 20/s
-- A role's full key is MOVIE#<movieId> / ACTOR#<actorId>: one GetItem answers it.
SELECT characterName, billing FROM "Movies" WHERE PK = 'MOVIE#tt0111161' AND SK = 'ACTOR#nm0000151';

-- pattern: get the movies of an actor
-- rate: 100/s
-- The flipped index: partition ACTOR#<actorId> holds the actor's roles, sorted by their PK
-- (MOVIE#<movieId>). The roles carry the title and year, so no second read per movie.
SELECT title, releaseYear, characterName FROM "Movies"."byActor" WHERE SK = 'ACTOR#nm0000151' AND begins_with(PK, 'MOVIE#');

-- pattern: get an actor and their movies
-- rate: 80/s
-- Without the begins_with the same Query also returns the actor's own item (ACTOR# / ACTOR#),
-- first, since 'ACTOR#' < 'MOVIE#': an actor page in one request.
SELECT * FROM "Movies"."byActor" WHERE SK = 'ACTOR#nm0000093';

-- pattern: get the movies of two actors
-- rate: 10/s
-- IN on the partition key: one Query per actor (2 + 3 roles).
SELECT * FROM "Movies"."byActor" WHERE SK IN ['ACTOR#nm0000228', 'ACTOR#nm0000093'] AND begins_with(PK, 'MOVIE#');

-- pattern: get several movies' details
-- rate: 100/s
-- Full keys of items in different partitions: one GetItem-sized Query per OR branch (a
-- BatchGetItem through the API does the same in one round trip).
SELECT movieId, title, releaseYear FROM "Movies" WHERE (PK = 'MOVIE#tt0111161' AND SK = 'MOVIE#tt0111161') OR (PK = 'MOVIE#tt0405159' AND SK = 'MOVIE#tt0405159') OR (PK = 'MOVIE#tt0114814' AND SK = 'MOVIE#tt0114814');

-- refused: find a movie by its title
-- Why refused: title is not a key of the table or of byActor, so DynamoDB would have to read
-- every item (a Scan). Fix: an index keyed by the title, with SK as its sort key so the movie
-- item is told from the roles (which copy the title):
--   ALTER TABLE "Movies" ADD GLOBAL INDEX "byTitle" (title S HASH, SK S RANGE);
--   SELECT * FROM "Movies"."byTitle" WHERE title = 'Fight Club' AND begins_with(SK, 'MOVIE#');
SELECT * FROM "Movies" WHERE title = 'Fight Club';

-- refused: find an actor's roles on the table
-- Why refused: on the table, ACTOR#<actorId> is a SORT key value of the roles; without the
-- partition key (the movie) there is no item collection to Query. Fix: read the flipped index,
-- where SK is the partition key:
--   SELECT * FROM "Movies"."byActor" WHERE SK = 'ACTOR#nm0000093' AND begins_with(PK, 'MOVIE#');
SELECT * FROM "Movies" WHERE SK = 'ACTOR#nm0000093';

-- refused: list every movie
-- Why refused: begins_with works on sort keys only; MOVIE#... partitions are spread over the
-- table, so finding them all is a Scan. Fix: if the app needs "all movies" (or by year), give
-- each movie item a constant GSI partition key (e.g. GSI1PK = 'MOVIES', GSI1SK = <year>#<id>),
-- or run SCAN SELECT knowingly for an offline job.
SELECT * FROM "Movies" WHERE begins_with(PK, 'MOVIE#');
