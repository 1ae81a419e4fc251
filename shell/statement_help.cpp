// `.help SELECT`, `.help CREATE TABLE`, ...: each statement's syntax with an example that runs.
// One table; the grammar itself is documented in parser/partiql.h.
#include <string>
#include <string_view>

#include "shell/session_state.h"

namespace keyhole::shell {
namespace {

struct StatementHelp {
  const char* name;     // as `.help` takes it (upper case, words separated by one space)
  const char* syntax;   // the forms
  const char* example;  // statements that run (on the table of the CREATE TABLE example)
};

constexpr StatementHelp kStatements[] = {
    {"SELECT",
     "SELECT * | path [, path ...] FROM \"Table\" | \"Table\".\"Index\" WHERE <key condition> [AND "
     "...]\n"
     "       [ORDER BY sort_key [ASC | DESC]]\n"
     "SCAN SELECT ... (reads the whole table or index)\n"
     "The WHERE must pin the partition key with = or IN (GetItem or Query); other conditions\n"
     "are filters. No JOIN, GROUP BY, COUNT(*) or LIMIT: see .pagesize and NEXT.",
     "SELECT * FROM \"App\" WHERE pk = 'USER#1' AND begins_with(sk, 'ORDER#') ORDER BY sk DESC;\n"
     "SELECT email FROM \"App\".\"byEmail\" WHERE email = 'a@x.io';"},
    {"INSERT",
     "INSERT INTO \"Table\" VALUE {'attribute': value, ...}\n"
     "One item, with its whole primary key; fails (DuplicateItemException) when the key exists.\n"
     "Strings take single quotes; numbers, true, false, null, [lists], {maps} and <<sets>>.",
     "INSERT INTO \"App\" VALUE {'pk': 'USER#1', 'sk': 'PROFILE', 'email': 'a@x.io', 'age': 42};"},
    {"UPDATE",
     "UPDATE \"Table\" SET path = value [, path = value ...] [REMOVE path ...] WHERE <whole key>\n"
     "       [RETURNING ALL|MODIFIED OLD|NEW *]\n"
     "Changes one existing item (ConditionalCheckFailedException when there is none).\n"
     "SCAN UPDATE ... applies the change to every item that matches.",
     "UPDATE \"App\" SET age = age + 1 WHERE pk = 'USER#1' AND sk = 'PROFILE' RETURNING MODIFIED "
     "NEW "
     "*;"},
    {"DELETE",
     "DELETE FROM \"Table\" WHERE <whole key> [AND condition] [RETURNING ALL OLD *]\n"
     "SCAN DELETE FROM \"Table\" WHERE ... deletes every item that matches.",
     "DELETE FROM \"App\" WHERE pk = 'USER#1' AND sk = 'ORDER#01';"},
    {"CREATE TABLE",
     "CREATE TABLE [IF NOT EXISTS] \"Table\" (pk S|N|B [, sk S|N|B])\n"
     "       [GLOBAL INDEX \"byA\" (a S [, b N]) [PROJECTION ALL | KEYS_ONLY | INCLUDE (x, y)]] "
     "...\n"
     "       (a multi-attribute GSI key, up to 4 + 4, names every role, HASH first:\n"
     "        GLOBAL INDEX \"byA\" (a S HASH, b S HASH, c N RANGE, d S RANGE))\n"
     "       [LOCAL INDEX \"byC\" (c N) [PROJECTION ...]] ...\n"
     "       [TTL attribute] [STREAM KEYS_ONLY | NEW_IMAGE | OLD_IMAGE | NEW_AND_OLD_IMAGES]\n"
     "       [BILLING PAY_PER_REQUEST | BILLING PROVISIONED (READ 5, WRITE 5)]",
     "CREATE TABLE \"App\" (pk S, sk S) GLOBAL INDEX \"byEmail\" (email S) TTL expires;"},
    {"DROP TABLE", "DROP TABLE [IF EXISTS] \"Table\"", "DROP TABLE IF EXISTS \"App\";"},
    {"ALTER TABLE",
     "ALTER TABLE \"Table\" ADD GLOBAL INDEX \"byA\" (a S [, b N]) [PROJECTION ...]   "
     "(backfilled;\n"
     "      a multi-attribute key as in CREATE TABLE: (a S HASH, b S HASH, c N RANGE))\n"
     "ALTER TABLE \"Table\" DROP INDEX \"byA\"\n"
     "ALTER TABLE \"Table\" SET TTL attribute | DISABLE TTL\n"
     "ALTER TABLE \"Table\" SET STREAM NEW_AND_OLD_IMAGES | DISABLE STREAM",
     "ALTER TABLE \"App\" ADD GLOBAL INDEX \"byRole\" (role S) PROJECTION KEYS_ONLY;"},
    {"SHOW TABLES", "SHOW TABLES (also .tables)", "SHOW TABLES;"},
    {"SHOW CREATE TABLE", "SHOW CREATE TABLE \"Table\" (also .schema T)",
     "SHOW CREATE TABLE \"App\";"},
    {"DESCRIBE", "DESCRIBE [TABLE] \"Table\": DescribeTable's answer as JSON", "DESCRIBE \"App\";"},
    {"EXPLAIN",
     "EXPLAIN [ANALYZE] <SELECT | INSERT | UPDATE | DELETE | EXISTS, with or without SCAN>\n"
     "The DynamoDB requests the statement becomes and their estimated capacity; ANALYZE also\n"
     "runs a read and shows what it cost.",
     "EXPLAIN SELECT * FROM \"App\" WHERE pk = 'USER#1';"},
    {"BEGIN",
     "BEGIN; <statements>; COMMIT;  (or ROLLBACK;)\n"
     "All reads (TransactGetItems) or all writes (TransactWriteItems), up to 100, all or\n"
     "nothing; EXISTS(SELECT ...) is a condition check. BEGIN BATCH; ...; COMMIT; sends them as\n"
     "one BatchExecuteStatement instead (up to 25, each on its own).",
     "BEGIN;\n"
     "INSERT INTO \"App\" VALUE {'pk': 'EMAIL#a@x.io', 'sk': 'EMAIL'};\n"
     "UPDATE \"App\" SET email = 'a@x.io' WHERE pk = 'USER#1' AND sk = 'PROFILE';\n"
     "COMMIT;"},
    {"NEXT", "NEXT: the next page of the last SELECT (after its footer's '-- more:')",
     ".pagesize 2\nSELECT * FROM \"App\" WHERE pk = 'USER#1';\nNEXT;"},
    {"CALL",
     "[CALL] <Operation> {request JSON}: any DynamoDB API operation, as aws dynamodb <op>\n"
     "--cli-input-json takes it",
     "GetItem {\"TableName\": \"App\", \"Key\": {\"pk\": {\"S\": \"USER#1\"}, \"sk\": {\"S\": "
     "\"PROFILE\"}}};"},
};

}  // namespace

std::string StatementHelpText(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "COMMIT" || upper == "ROLLBACK" || upper == "BEGIN BATCH") upper = "BEGIN";
  if (upper == "SCAN") upper = "SELECT";
  if (upper == "ALTER") upper = "ALTER TABLE";
  if (upper == "CREATE") upper = "CREATE TABLE";
  if (upper == "DROP") upper = "DROP TABLE";
  for (const StatementHelp& h : kStatements) {
    if (upper != h.name) continue;
    std::string out = std::string(h.syntax) + "\nExample:\n";
    std::string_view example = h.example;
    while (!example.empty()) {
      size_t nl = example.find('\n');
      out += "  " + std::string(example.substr(0, nl)) + "\n";
      if (nl == std::string_view::npos) break;
      example.remove_prefix(nl + 1);
    }
    return out;
  }
  return "";
}

std::string StatementHelpNames() {
  std::string out;
  for (const StatementHelp& h : kStatements) out += (out.empty() ? "" : ", ") + std::string(h.name);
  return out;
}

}  // namespace keyhole::shell
