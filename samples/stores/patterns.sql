-- Stores: access patterns. Load schema.sql first, then:
--   keyhole stores.kh --patterns samples/stores/patterns.sql

-- pattern: get all stores in a country
-- rate: 1/s
-- The country is the partition key: its whole item collection, sorted by state, city, zip.
SELECT * FROM "Stores" WHERE PK = 'CAN';

-- pattern: get all stores in both countries
-- rate: 1/min
-- IN on the partition key: one Query per country, 22 + 8 stores.
SELECT storeId, storeName, city FROM "Stores" WHERE PK IN ['USA', 'CAN'];

-- pattern: get all stores in a state
-- rate: 10/s
-- The state is the first segment of SK, so begins_with on it. Note the trailing '#'.
SELECT * FROM "Stores" WHERE PK = 'USA' AND begins_with(SK, 'CA#');

-- pattern: get all stores in a city
-- rate: 50/s
SELECT storeName, street, zipcode, phone FROM "Stores" WHERE PK = 'USA' AND begins_with(SK, 'WA#Seattle#');

-- pattern: get all stores in a zip code
-- rate: 100/s
-- Two Seattle stores share 98101; the storeId after it keeps their keys apart.
SELECT * FROM "Stores" WHERE PK = 'USA' AND begins_with(SK, 'WA#Seattle#98101#');

-- pattern: get one store
-- rate: 300/s
-- The full key: every segment down to the storeId, so a GetItem.
SELECT * FROM "Stores" WHERE PK = 'USA' AND SK = 'WA#Seattle#98101#1001';

-- pattern: get all stores in a canadian city
-- rate: 20/s
-- The same key shape works for provinces and postal codes.
SELECT * FROM "Stores" WHERE PK = 'CAN' AND begins_with(SK, 'ON#Toronto#');

-- pattern: get the stores of a city in a zip code range
-- rate: 10/s
-- Sort keys compare as strings, and zip codes are fixed-width digit strings, so a range of
-- zips is a BETWEEN on the sort key ('90012#1021' and '90028#1022' fall between the bounds).
SELECT * FROM "Stores" WHERE PK = 'USA' AND SK BETWEEN 'CA#Los Angeles#90000' AND 'CA#Los Angeles#90030';

-- pattern: get a state's stores in reverse order
-- rate: 5/s
-- ORDER BY the sort key sets the Query's direction (ScanIndexForward = false).
SELECT city, zipcode, storeName FROM "Stores" WHERE PK = 'USA' AND begins_with(SK, 'NY#') ORDER BY SK DESC;

-- pattern: get the large stores of a state
-- rate: 5/s
-- squareFeet is not a key: the Query reads the 4 Texas stores and the filter keeps 2. The
-- capacity is that of the 4 read; fine when the key narrows the read this much.
SELECT * FROM "Stores" WHERE PK = 'USA' AND begins_with(SK, 'TX#') AND squareFeet >= 25000;

-- refused: find the stores of a city without the country
-- Why refused: begins_with on SK narrows a read inside ONE partition; with no PK there is no
-- partition to read, so DynamoDB would Scan every item. Fix: name the country, as in
-- "get all stores in a city": PK = 'USA' AND begins_with(SK, 'WA#Seattle#').
SELECT * FROM "Stores" WHERE begins_with(SK, 'WA#Seattle#');

-- refused: find stores by zip code alone
-- Why refused: zipcode is a plain attribute here, not a key of the table or of any index, so
-- it is a Scan. Fix: a zip is reached through its state and city (the pattern "get all stores
-- in a zip code"); if the app only has the zip, add an index keyed by it:
--   ALTER TABLE "Stores" ADD GLOBAL INDEX "byZip" (zipcode S HASH, storeId S RANGE);
SELECT * FROM "Stores" WHERE zipcode = '98101';

-- refused: find stores opened since 2020
-- Why refused: openedAt is not a key, so every store would be read to check it. Fix: an
-- index with the country as partition key and the opening time as sort key,
--   ALTER TABLE "Stores" ADD GLOBAL INDEX "byOpening" (country S HASH, openedAt S RANGE);
-- then WHERE country = 'USA' AND openedAt >= '2020-01-01T00:00:00Z' is a Query.
SELECT * FROM "Stores" WHERE openedAt >= '2020-01-01T00:00:00Z';
