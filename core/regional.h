// What DynamoDB's regions answer differently, and which answer keyhole gives. DynamoDB rolls its
// validation changes out region by region, so for some requests its regions disagree (the
// Parity Suite's captures across 33 regions, September and October 2026; docs/decisions.md
// "Where regions disagree" has the table and the sources). keyhole answers as most regions do,
// and as the region a request is served in does where it is known to differ: the thread's
// ArnRegion() (core/schema.h), which keyhole serve sets to the region each request was signed
// for (or --region). The shell and unsigned requests ("local") get the majority's answers.
//
// Thread-safety: the table is constant; Regional() reads only the calling thread's ArnScope.
#pragma once

#include <string_view>

namespace keyhole {

struct RegionalBehaviour {
  // UpdateItem's 400 KB ceiling: what the statement writes plus a cost per clause (31 of 33
  // regions), or the finished item alone (eu-south-2, me-central-1).
  bool update_size_by_statement = true;
  // TransactWriteItems and TransactGetItems check their actions' values in the current layer
  // and name TransactItems when it is empty or too long (the rollout of 2026-10-08:
  // ap-northeast-2, eu-north-1, eu-west-2); the other 30 regions use the older layer. Not
  // modeled: the rollout also refuses a 32-level value and a transacted Update's size before
  // running, where the 30 cancel the transaction.
  bool transactions_checked_up_front = false;
  // Scan's messages in the newer wording (ap-east-2, ap-northeast-2, eu-central-1, eu-west-2,
  // us-west-1); 28 regions keep the older one.
  bool scan_newer_wording = false;
  // BatchWriteItem's empty RequestItems as the generic constraint (ap-east-2, ap-southeast-1,
  // eu-central-1, eu-north-1, eu-west-2) or "The requestItems parameter is required for
  // BatchWriteItem" (28 regions).
  bool batch_write_empty_generic = false;
  // BatchGetItem's empty RequestItems as the generic constraint (32 regions) or "The
  // requestItems parameter is required for BatchGetItem" (me-central-1).
  bool batch_get_empty_generic = true;
  // The old cohort (eu-south-2, me-central-1): PutItem and UpdateItem report every constraint
  // error at once (not modeled: its evaluation of a 32-level ExpressionAttributeValue in
  // UpdateItem's condition, and its wording of {"NULL": false}).
  bool old_cohort = false;
};

// The behaviour of `region` (an unknown region, and "local", get the majority's).
const RegionalBehaviour& BehaviourOf(std::string_view region);
// The behaviour of the region this thread serves (ArnRegion()).
const RegionalBehaviour& Regional();

}  // namespace keyhole
