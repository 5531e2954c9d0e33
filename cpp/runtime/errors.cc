#include "runtime/errors.h"

namespace shardlab {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kValue:
      return "ValueError";
    case ErrorKind::kAxisName:
      return "AxisNameError";
    case ErrorKind::kShape:
      return "ShapeError";
    case ErrorKind::kSharding:
      return "ShardingError";
    case ErrorKind::kVma:
      return "VmaError";
    case ErrorKind::kShardingType:
      return "ShardingTypeError";
    case ErrorKind::kDevice:
      return "DeviceError";
    case ErrorKind::kResource:
      return "ResourceError";
    case ErrorKind::kCancelled:
      return "CancelledError";
  }
  return "Error";
}

}  // namespace shardlab
