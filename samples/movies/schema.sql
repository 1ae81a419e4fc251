-- Movies: a small film database, the classic "movies and actors" adjacency list. A movie has a
-- cast; an actor plays in many movies; each casting is a role (the character played and the
-- billing order). The app shows a movie page (details and cast) and an actor page (details
-- and filmography), each with ONE request.
--
-- The table: "Movies", keys PK (partition) and SK (sort), both strings with a prefix and a `#`
-- separator. A movie's item collection (PK = MOVIE#<movieId>) holds the movie itself and one
-- item per role, so a movie page is one Query. An actor's details live in the actor's own
-- collection (PK = ACTOR#<actorId>).
-- The index "byActor" is the table flipped: partition key = SK, sort key = PK (an "inverted
-- index"). A role item (MOVIE#m / ACTOR#a) appears in it under ACTOR#a, next to the actor's
-- own item (ACTOR#a / ACTOR#a), so an actor page (details plus every movie played in) is also
-- one Query. The many-to-many relation is stored once and read from both sides.
-- There is no type attribute: an entity is told apart by its key prefixes alone.
--
-- Entities and their keys:
--   entity | PK               | SK               | byActor (SK / PK)
--   -------+------------------+------------------+-------------------------------------
--   Movie  | MOVIE#<movieId>  | MOVIE#<movieId>  | MOVIE#<movieId> / MOVIE#<movieId>
--   Role   | MOVIE#<movieId>  | ACTOR#<actorId>  | ACTOR#<actorId> / MOVIE#<movieId>
--   Actor  | ACTOR#<actorId>  | ACTOR#<actorId>  | ACTOR#<actorId> / ACTOR#<actorId>
-- Ids are IMDb's (tt... for titles, nm... for people): fixed-width strings, so they sort well.
DROP TABLE IF EXISTS "Movies";
CREATE TABLE "Movies" (PK S HASH, SK S RANGE)
  GLOBAL INDEX "byActor" (SK S HASH, PK S RANGE);
.quiet on

-- Movies. The details item repeats the id in both keys (MOVIE#<id> / MOVIE#<id>): it is the
-- "root" of the movie's item collection. Sort keys order the collection: 'ACTOR#' < 'MOVIE#',
-- so the roles come first and the movie's own item last (ORDER BY SK DESC puts it first).
-- movieId is kept as an attribute too, so the item reads well on its own.
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0111161', 'SK': 'MOVIE#tt0111161', 'movieId': 'tt0111161', 'title': 'The Shawshank Redemption', 'releaseYear': 1994, 'genres': ['Drama'], 'director': 'Frank Darabont', 'runtimeMinutes': 142, 'releasedOn': '1994-09-23T00:00:00Z'};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0114369', 'SK': 'MOVIE#tt0114369', 'movieId': 'tt0114369', 'title': 'Se7en', 'releaseYear': 1995, 'genres': ['Crime', 'Drama', 'Mystery'], 'director': 'David Fincher', 'runtimeMinutes': 127, 'releasedOn': '1995-09-22T00:00:00Z'};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0114814', 'SK': 'MOVIE#tt0114814', 'movieId': 'tt0114814', 'title': 'The Usual Suspects', 'releaseYear': 1995, 'genres': ['Crime', 'Drama', 'Mystery'], 'director': 'Bryan Singer', 'runtimeMinutes': 106, 'releasedOn': '1995-08-16T00:00:00Z'};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0137523', 'SK': 'MOVIE#tt0137523', 'movieId': 'tt0137523', 'title': 'Fight Club', 'releaseYear': 1999, 'genres': ['Drama'], 'director': 'David Fincher', 'runtimeMinutes': 139, 'releasedOn': '1999-10-15T00:00:00Z'};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0240772', 'SK': 'MOVIE#tt0240772', 'movieId': 'tt0240772', 'title': 'Ocean''s Eleven', 'releaseYear': 2001, 'genres': ['Crime', 'Thriller'], 'director': 'Steven Soderbergh', 'runtimeMinutes': 116, 'releasedOn': '2001-12-07T00:00:00Z'};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0405159', 'SK': 'MOVIE#tt0405159', 'movieId': 'tt0405159', 'title': 'Million Dollar Baby', 'releaseYear': 2004, 'genres': ['Drama', 'Sport'], 'director': 'Clint Eastwood', 'runtimeMinutes': 132, 'releasedOn': '2005-01-28T00:00:00Z'};

-- Actors. Same idea: ACTOR#<id> / ACTOR#<id> is the root of the actor's collection. In the
-- flipped index it lands in partition ACTOR#<id> too, beside the actor's roles, and since the
-- index sorts by PK there and 'ACTOR#' < 'MOVIE#', it comes first: one Query on byActor
-- returns "the actor, then the movies".
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000093', 'SK': 'ACTOR#nm0000093', 'actorId': 'nm0000093', 'actorName': 'Brad Pitt', 'birthDate': '1963-12-18', 'birthPlace': 'Shawnee, Oklahoma, USA'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000123', 'SK': 'ACTOR#nm0000123', 'actorId': 'nm0000123', 'actorName': 'George Clooney', 'birthDate': '1961-05-06', 'birthPlace': 'Lexington, Kentucky, USA'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000142', 'SK': 'ACTOR#nm0000142', 'actorId': 'nm0000142', 'actorName': 'Clint Eastwood', 'birthDate': '1930-05-31', 'birthPlace': 'San Francisco, California, USA'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000151', 'SK': 'ACTOR#nm0000151', 'actorId': 'nm0000151', 'actorName': 'Morgan Freeman', 'birthDate': '1937-06-01', 'birthPlace': 'Memphis, Tennessee, USA'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000209', 'SK': 'ACTOR#nm0000209', 'actorId': 'nm0000209', 'actorName': 'Tim Robbins', 'birthDate': '1958-10-16', 'birthPlace': 'West Covina, California, USA'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000210', 'SK': 'ACTOR#nm0000210', 'actorId': 'nm0000210', 'actorName': 'Julia Roberts', 'birthDate': '1967-10-28', 'birthPlace': 'Smyrna, Georgia, USA'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000228', 'SK': 'ACTOR#nm0000228', 'actorId': 'nm0000228', 'actorName': 'Kevin Spacey', 'birthDate': '1959-07-26', 'birthPlace': 'South Orange, New Jersey, USA'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000307', 'SK': 'ACTOR#nm0000307', 'actorId': 'nm0000307', 'actorName': 'Helena Bonham Carter', 'birthDate': '1966-05-26', 'birthPlace': 'London, England, UK'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000321', 'SK': 'ACTOR#nm0000321', 'actorId': 'nm0000321', 'actorName': 'Gabriel Byrne', 'birthDate': '1950-05-12', 'birthPlace': 'Dublin, Ireland'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000354', 'SK': 'ACTOR#nm0000354', 'actorId': 'nm0000354', 'actorName': 'Matt Damon', 'birthDate': '1970-10-08', 'birthPlace': 'Boston, Massachusetts, USA'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0000569', 'SK': 'ACTOR#nm0000569', 'actorId': 'nm0000569', 'actorName': 'Gwyneth Paltrow', 'birthDate': '1972-09-27', 'birthPlace': 'Los Angeles, California, USA'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0001570', 'SK': 'ACTOR#nm0001570', 'actorId': 'nm0001570', 'actorName': 'Edward Norton', 'birthDate': '1969-08-18', 'birthPlace': 'Boston, Massachusetts, USA'};
INSERT INTO "Movies" VALUE {'PK': 'ACTOR#nm0005476', 'SK': 'ACTOR#nm0005476', 'actorId': 'nm0005476', 'actorName': 'Hilary Swank', 'birthDate': '1974-07-30', 'birthPlace': 'Lincoln, Nebraska, USA'};

-- Roles: the edges of the many-to-many. A role is stored in the MOVIE's collection
-- (MOVIE#<movieId> / ACTOR#<actorId>), so a movie's cast is a begins_with(SK, 'ACTOR#') Query;
-- the flipped index files the same item under ACTOR#<actorId> / MOVIE#<movieId>, so an actor's
-- filmography is a begins_with(PK, 'MOVIE#') Query on byActor. The role copies what each side
-- shows about the other (the movie's title and year, the actor's name): an actor page can then
-- list the movies without a second read per movie. The cost: renaming an actor means updating
-- their roles too (rare, and worth it for a read-heavy app).
-- "characterName", not "character": CHARACTER is a PartiQL keyword and would need quoting.
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0111161', 'SK': 'ACTOR#nm0000209', 'movieId': 'tt0111161', 'actorId': 'nm0000209', 'title': 'The Shawshank Redemption', 'releaseYear': 1994, 'actorName': 'Tim Robbins', 'characterName': 'Andy Dufresne', 'billing': 1};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0111161', 'SK': 'ACTOR#nm0000151', 'movieId': 'tt0111161', 'actorId': 'nm0000151', 'title': 'The Shawshank Redemption', 'releaseYear': 1994, 'actorName': 'Morgan Freeman', 'characterName': 'Ellis Boyd ''Red'' Redding', 'billing': 2};

INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0114369', 'SK': 'ACTOR#nm0000093', 'movieId': 'tt0114369', 'actorId': 'nm0000093', 'title': 'Se7en', 'releaseYear': 1995, 'actorName': 'Brad Pitt', 'characterName': 'Detective David Mills', 'billing': 1};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0114369', 'SK': 'ACTOR#nm0000151', 'movieId': 'tt0114369', 'actorId': 'nm0000151', 'title': 'Se7en', 'releaseYear': 1995, 'actorName': 'Morgan Freeman', 'characterName': 'Detective Lt. William Somerset', 'billing': 2};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0114369', 'SK': 'ACTOR#nm0000569', 'movieId': 'tt0114369', 'actorId': 'nm0000569', 'title': 'Se7en', 'releaseYear': 1995, 'actorName': 'Gwyneth Paltrow', 'characterName': 'Tracy Mills', 'billing': 3};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0114369', 'SK': 'ACTOR#nm0000228', 'movieId': 'tt0114369', 'actorId': 'nm0000228', 'title': 'Se7en', 'releaseYear': 1995, 'actorName': 'Kevin Spacey', 'characterName': 'John Doe', 'billing': 4};

INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0114814', 'SK': 'ACTOR#nm0000321', 'movieId': 'tt0114814', 'actorId': 'nm0000321', 'title': 'The Usual Suspects', 'releaseYear': 1995, 'actorName': 'Gabriel Byrne', 'characterName': 'Dean Keaton', 'billing': 1};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0114814', 'SK': 'ACTOR#nm0000228', 'movieId': 'tt0114814', 'actorId': 'nm0000228', 'title': 'The Usual Suspects', 'releaseYear': 1995, 'actorName': 'Kevin Spacey', 'characterName': 'Roger ''Verbal'' Kint', 'billing': 2};

INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0137523', 'SK': 'ACTOR#nm0000093', 'movieId': 'tt0137523', 'actorId': 'nm0000093', 'title': 'Fight Club', 'releaseYear': 1999, 'actorName': 'Brad Pitt', 'characterName': 'Tyler Durden', 'billing': 1};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0137523', 'SK': 'ACTOR#nm0001570', 'movieId': 'tt0137523', 'actorId': 'nm0001570', 'title': 'Fight Club', 'releaseYear': 1999, 'actorName': 'Edward Norton', 'characterName': 'The Narrator', 'billing': 2};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0137523', 'SK': 'ACTOR#nm0000307', 'movieId': 'tt0137523', 'actorId': 'nm0000307', 'title': 'Fight Club', 'releaseYear': 1999, 'actorName': 'Helena Bonham Carter', 'characterName': 'Marla Singer', 'billing': 3};

INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0240772', 'SK': 'ACTOR#nm0000123', 'movieId': 'tt0240772', 'actorId': 'nm0000123', 'title': 'Ocean''s Eleven', 'releaseYear': 2001, 'actorName': 'George Clooney', 'characterName': 'Danny Ocean', 'billing': 1};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0240772', 'SK': 'ACTOR#nm0000093', 'movieId': 'tt0240772', 'actorId': 'nm0000093', 'title': 'Ocean''s Eleven', 'releaseYear': 2001, 'actorName': 'Brad Pitt', 'characterName': 'Rusty Ryan', 'billing': 2};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0240772', 'SK': 'ACTOR#nm0000354', 'movieId': 'tt0240772', 'actorId': 'nm0000354', 'title': 'Ocean''s Eleven', 'releaseYear': 2001, 'actorName': 'Matt Damon', 'characterName': 'Linus Caldwell', 'billing': 3};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0240772', 'SK': 'ACTOR#nm0000210', 'movieId': 'tt0240772', 'actorId': 'nm0000210', 'title': 'Ocean''s Eleven', 'releaseYear': 2001, 'actorName': 'Julia Roberts', 'characterName': 'Tess Ocean', 'billing': 4};

INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0405159', 'SK': 'ACTOR#nm0000142', 'movieId': 'tt0405159', 'actorId': 'nm0000142', 'title': 'Million Dollar Baby', 'releaseYear': 2004, 'actorName': 'Clint Eastwood', 'characterName': 'Frankie Dunn', 'billing': 1};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0405159', 'SK': 'ACTOR#nm0005476', 'movieId': 'tt0405159', 'actorId': 'nm0005476', 'title': 'Million Dollar Baby', 'releaseYear': 2004, 'actorName': 'Hilary Swank', 'characterName': 'Maggie Fitzgerald', 'billing': 2};
INSERT INTO "Movies" VALUE {'PK': 'MOVIE#tt0405159', 'SK': 'ACTOR#nm0000151', 'movieId': 'tt0405159', 'actorId': 'nm0000151', 'title': 'Million Dollar Baby', 'releaseYear': 2004, 'actorName': 'Morgan Freeman', 'characterName': 'Eddie ''Scrap-Iron'' Dupris', 'billing': 3};
.quiet off
