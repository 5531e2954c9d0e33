// Error types of the ShardLab core: every failure the user can cause is an
// Error with a category, and messages name the operation, the argument and
// what would have been valid.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace shardlab {

/// Category of an error, mirrored by the JS API's error subclasses.
enum class ErrorKind {
  kValue,     // a bad argument value (an unknown axis, a bad permutation)
  kAxisName,  // a collective's axis name no enclosing shard_map binds (JAX's NameError)
  kShape,     // shapes that do not fit together
  kSharding,  // a PartitionSpec that does not fit the mesh or the shape
  kVma,       // a shard_map output varying along a mesh axis its out_specs omit
  kShardingType,  // types whose shardings do not combine (JAX's ShardingTypeError): out_sharding= or reshard decides
  kDevice,    // a failure on a device while running a job
  kResource,  // out of memory, too many pending jobs
  kCancelled, // the host cancelled the job (its time limit passed) before it ended
};

/// Name of an ErrorKind as the JS API spells its error class ("ShapeError", ...).
const char* error_kind_name(ErrorKind kind);

/// The one exception type the core throws for user-visible errors.
class Error : public std::runtime_error {
 public:
  /// Creates an error of `kind` with a complete, human-readable message.
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  /// The category of this error.
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

/// Thrown out of a barrier on the devices that did not fail when another device
/// of the same job failed: it unwinds them to the device boundary, where it is
/// not reported (the failing device's own error is).
struct JobAborted {};

/// Builds a message from streamable parts and throws it as an Error of `kind`.
template <class... Parts>
[[noreturn]] void fail(ErrorKind kind, Parts&&... parts) {
  std::ostringstream out;
  (out << ... << std::forward<Parts>(parts));
  throw Error(kind, out.str());
}

}  // namespace shardlab
