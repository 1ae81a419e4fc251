// Status and Result<T>: keyhole's one error type.
//
// A Status is either OK or carries a DynamoDB error type (the name a client sees, such as
// "ValidationException") and a message. Library code returns Status/Result; only the shell
// prints them; nothing but main() exits. An OK Status is cheap: an enum and a null pointer (made,
// moved, tested and destroyed without touching memory); an error's text lives behind the pointer.
#pragma once

#include <cassert>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace keyhole {

class AttributeValue;
template <class V>
class FlatMap;  // core/flat_map.h; FlatMap<AttributeValue> is Item

// DO NOT REORDER: values are not persisted, but tests and renderers switch on them.
enum class ErrorCode {
  kOk = 0,
  kValidation,                   // ValidationException
  kResourceNotFound,             // ResourceNotFoundException
  kResourceInUse,                // ResourceInUseException
  kConditionalCheckFailed,       // ConditionalCheckFailedException
  kTransactionCanceled,          // TransactionCanceledException
  kTransactionConflict,          // TransactionConflictException
  kDuplicateItem,                // DuplicateItemException
  kItemCollectionSizeLimit,      // ItemCollectionSizeLimitExceededException
  kLimitExceeded,                // LimitExceededException
  kIdempotentParameterMismatch,  // IdempotentParameterMismatchException
  kInternalServerError,          // InternalServerError (I/O and LMDB failures)
  kDatabaseFormat,               // keyhole's own: the file is not a keyhole database, or is newer
  kInterrupted,                  // keyhole's own: the user interrupted the statement (Ctrl-C)
  kExpiredIterator,              // ExpiredIteratorException (DynamoDB Streams' GetRecords)
  kTrimmedDataAccess,            // TrimmedDataAccessException (DynamoDB Streams)
  kAccessDenied,                 // AccessDeniedException (keyhole: a database opened read-only)
  kSerialization,                // SerializationException (a request member of the wrong type)
  kTableNotFound,                // TableNotFoundException (the continuous-backups operations)
  // An error type keyhole has no code of its own for: the Status carries its name (what a
  // remote endpoint sent, such as ThrottlingException or UnrecognizedClientException, or a
  // client-side failure such as EndpointConnectionError). Status::Named makes one.
  kOther,
};

// The DynamoDB error type name for `code`, e.g. "ValidationException". "OK" for kOk.
std::string_view ErrorName(ErrorCode code);

class Status {
 public:
  Status() = default;  // OK
  Status(ErrorCode code, std::string message) : code_(code), rep_(std::make_unique<Rep>()) {
    rep_->message = std::move(message);
  }
  Status(const Status& other)
      : code_(other.code_), rep_(other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) {
      // The copy first: if it cannot be made, *this is left as it was.
      std::unique_ptr<Rep> copy = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
      code_ = other.code_;
      rep_ = std::move(copy);
    }
    return *this;
  }
  // A moved-from Status is OK.
  Status(Status&& other) noexcept
      : code_(std::exchange(other.code_, ErrorCode::kOk)), rep_(std::move(other.rep_)) {}
  Status& operator=(Status&& other) noexcept {
    code_ = std::exchange(other.code_, ErrorCode::kOk);
    rep_ = std::move(other.rep_);
    return *this;
  }
  ~Status() = default;

  static Status OK() { return Status(); }
  static Status Validation(std::string msg) { return {ErrorCode::kValidation, std::move(msg)}; }
  static Status NotFound(std::string msg) { return {ErrorCode::kResourceNotFound, std::move(msg)}; }
  static Status InUse(std::string msg) { return {ErrorCode::kResourceInUse, std::move(msg)}; }
  static Status ConditionFailed(std::string msg) {
    return {ErrorCode::kConditionalCheckFailed, std::move(msg)};
  }
  static Status LimitExceeded(std::string msg) {
    return {ErrorCode::kLimitExceeded, std::move(msg)};
  }
  static Status Internal(std::string msg) {
    return {ErrorCode::kInternalServerError, std::move(msg)};
  }
  static Status Format(std::string msg) { return {ErrorCode::kDatabaseFormat, std::move(msg)}; }
  static Status TransactionCanceled(std::string msg) {
    return {ErrorCode::kTransactionCanceled, std::move(msg)};
  }
  static Status IdempotentMismatch(std::string msg) {
    return {ErrorCode::kIdempotentParameterMismatch, std::move(msg)};
  }
  static Status AccessDenied(std::string msg) { return {ErrorCode::kAccessDenied, std::move(msg)}; }
  // A kOther error named `name` ("ThrottlingException", "EndpointConnectionError", ...).
  static Status Named(std::string name, std::string msg, int http_status = 0) {
    Status s(ErrorCode::kOther, std::move(msg));
    s.mutable_rep().name = std::move(name);
    s.mutable_rep().http_status = http_status;
    return s;
  }

  bool ok() const { return code_ == ErrorCode::kOk; }
  bool IsValidation() const { return code_ == ErrorCode::kValidation; }
  bool IsNotFound() const { return code_ == ErrorCode::kResourceNotFound; }
  bool IsConditionFailed() const { return code_ == ErrorCode::kConditionalCheckFailed; }

  ErrorCode code() const { return code_; }
  // The error type's name: ErrorName(code()), or for kOther the name the Status carries.
  std::string_view name() const {
    return code_ == ErrorCode::kOther && !rep().name.empty() ? std::string_view(rep().name)
                                                             : ErrorName(code_);
  }
  // The HTTP status a kOther error came with (0 when none: a client-side failure).
  int http_status() const { return rep().http_status; }
  const std::string& message() const { return rep().message; }
  // "ValidationException: <message>", or "OK".
  std::string ToString() const;

  // The item a ConditionalCheckFailedException carries when the request asked for
  // ReturnValuesOnConditionCheckFailure=ALL_OLD and the item existed; null otherwise.
  using ItemPtr = std::shared_ptr<const FlatMap<AttributeValue>>;
  const ItemPtr& item() const { return rep().item; }
  Status& WithItem(ItemPtr item) {
    mutable_rep().item = std::move(item);
    return *this;
  }

  // keyhole's teaching text for a person reading the error in the shell: what the mistake
  // probably was and the statement that fixes it ("double quotes name an attribute; ...").
  // Never part of message() and never sent on the wire (the message stays DynamoDB's own);
  // empty when there is nothing to add. The shell prints it as "  hint: ..." under the error.
  const std::string& hint() const { return rep().hint; }
  Status& WithHint(std::string hint) {
    mutable_rep().hint = std::move(hint);
    return *this;
  }

  // One entry of a TransactionCanceledException's CancellationReasons: Code ("None",
  // "ConditionalCheckFailed", "ValidationError", ...), Message (empty for None) and the item
  // when the action asked for ReturnValuesOnConditionCheckFailure=ALL_OLD.
  struct CancellationReason {
    std::string code;
    std::string message;
    ItemPtr item;
  };
  using Reasons = std::shared_ptr<const std::vector<CancellationReason>>;
  // The reasons a TransactionCanceledException carries, one per action in request order; null
  // for every other error.
  const Reasons& cancellation_reasons() const { return rep().reasons; }
  Status& WithCancellationReasons(Reasons reasons) {
    mutable_rep().reasons = std::move(reasons);
    return *this;
  }

 private:
  struct Rep {
    std::string message;
    std::string name;     // kOther's error type
    int http_status = 0;  // kOther's HTTP status
    std::string hint;
    ItemPtr item;
    Reasons reasons;
  };
  static const Rep kEmpty;  // what a Status without a Rep reports
  const Rep& rep() const { return rep_ ? *rep_ : kEmpty; }
  Rep& mutable_rep() {
    if (!rep_) rep_ = std::make_unique<Rep>();
    return *rep_;
  }

  ErrorCode code_ = ErrorCode::kOk;
  std::unique_ptr<Rep> rep_;  // null for OK (and for an error with nothing to say yet)
};

// Either a value or a non-OK Status. REQUIRES: a Status given to it is not OK.
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit on purpose
  Result(Status status) : v_(std::move(status)) { assert(!std::get<Status>(v_).ok()); }

  bool ok() const { return v_.index() == 0; }
  // REQUIRES: ok().
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  // OK when ok(), else the error. A reference into this Result (or to a static OK), so that
  // `const std::string& m = r.status().message();` stays valid as long as `r` does; from a
  // temporary Result, a Status of its own.
  const Status& status() const& { return ok() ? kOk : std::get<1>(v_); }
  Status status() && { return ok() ? Status() : std::get<1>(std::move(v_)); }

 private:
  static inline const Status kOk{};
  std::variant<T, Status> v_;
};

}  // namespace keyhole

#define KH_CONCAT_INNER(a, b) a##b
#define KH_CONCAT(a, b) KH_CONCAT_INNER(a, b)

// Returns the Status of `expr` from the enclosing function when it is not OK.
#define KH_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::keyhole::Status kh_status_ = (expr);   \
    if (!kh_status_.ok()) return kh_status_; \
  } while (0)

// `lhs = value of expr`, or returns its Status from the enclosing function.
#define KH_ASSIGN_OR_RETURN(lhs, expr) \
  KH_ASSIGN_OR_RETURN_IMPL(KH_CONCAT(kh_r_, __LINE__), lhs, expr)
#define KH_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.status();            \
  lhs = std::move(tmp).value()
