#include "core/status.h"

namespace keyhole {

std::string_view ErrorName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "OK";
    case ErrorCode::kValidation:
      return "ValidationException";
    case ErrorCode::kResourceNotFound:
      return "ResourceNotFoundException";
    case ErrorCode::kResourceInUse:
      return "ResourceInUseException";
    case ErrorCode::kConditionalCheckFailed:
      return "ConditionalCheckFailedException";
    case ErrorCode::kTransactionCanceled:
      return "TransactionCanceledException";
    case ErrorCode::kTransactionConflict:
      return "TransactionConflictException";
    case ErrorCode::kDuplicateItem:
      return "DuplicateItemException";
    case ErrorCode::kItemCollectionSizeLimit:
      return "ItemCollectionSizeLimitExceededException";
    case ErrorCode::kLimitExceeded:
      return "LimitExceededException";
    case ErrorCode::kIdempotentParameterMismatch:
      return "IdempotentParameterMismatchException";
    case ErrorCode::kInternalServerError:
      return "InternalServerError";
    case ErrorCode::kDatabaseFormat:
      return "DatabaseFormatException";
    case ErrorCode::kInterrupted:
      return "InterruptedException";
    case ErrorCode::kExpiredIterator:
      return "ExpiredIteratorException";
    case ErrorCode::kTrimmedDataAccess:
      return "TrimmedDataAccessException";
    case ErrorCode::kAccessDenied:
      return "AccessDeniedException";
    case ErrorCode::kSerialization:
      return "SerializationException";
    case ErrorCode::kTableNotFound:
      return "TableNotFoundException";
    case ErrorCode::kOther:
      return "Error";
  }
  return "UnknownError";
}

const Status::Rep Status::kEmpty{};

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string s(name());
  s += ": ";
  s += message();
  return s;
}

}  // namespace keyhole
