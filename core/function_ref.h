// FunctionRef<R(Args...)>: a reference to a callable for a parameter that is called before the
// function taking it returns, as LLVM's function_ref and absl::FunctionRef. Unlike std::function
// it never allocates (a lambda capturing more than two references costs std::function a heap
// block per call). It does not own the callable: never store one, or return one, beyond the
// call it was passed to. Copying it copies the reference. Thread-safety: as the callable's.
#pragma once

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace keyhole {

template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F,
            typename = std::enable_if_t<!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
                                        std::is_invocable_r_v<R, F&, Args...>>>
  FunctionRef(F&& f) noexcept  // NOLINT: converts implicitly, as std::function does
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          return std::invoke(*static_cast<std::remove_reference_t<F>*>(object),
                             std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace keyhole
