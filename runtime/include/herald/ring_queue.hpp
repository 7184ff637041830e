#pragma once
// A double-ended FIFO over one growable circular buffer. The queues on the
// delivery path (outbox, log, actor mailboxes) see a steady stream of pushes
// and pops; std::deque allocates and frees a block every few hundred bytes of
// traffic, this keeps its capacity and allocates only when it grows.
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace herald {

template <class T>
class RingQueue {
 public:
  RingQueue() = default;
  RingQueue(const RingQueue&) = delete;
  RingQueue& operator=(const RingQueue&) = delete;
  RingQueue(RingQueue&& other) noexcept
      : slots_(std::exchange(other.slots_, nullptr)),
        capacity_(std::exchange(other.capacity_, 0)),
        head_(std::exchange(other.head_, 0)),
        size_(std::exchange(other.size_, 0)) {}
  RingQueue& operator=(RingQueue&& other) noexcept {
    if (this != &other) {
      release();
      slots_ = std::exchange(other.slots_, nullptr);
      capacity_ = std::exchange(other.capacity_, 0);
      head_ = std::exchange(other.head_, 0);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~RingQueue() { release(); }

  void swap(RingQueue& other) noexcept {
    std::swap(slots_, other.slots_);
    std::swap(capacity_, other.capacity_);
    std::swap(head_, other.head_);
    std::swap(size_, other.size_);
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  // i-th element from the front.
  T& operator[](std::size_t i) { return slots_[wrap(head_ + i)]; }
  const T& operator[](std::size_t i) const { return slots_[wrap(head_ + i)]; }

  void push_back(const T& value) { emplace_back(value); }
  void push_back(T&& value) { emplace_back(std::move(value)); }

  // Growing is out of line, so that the common push is a few inline
  // instructions.
  template <class... Args>
  void emplace_back(Args&&... args) {
    if (size_ == capacity_) {
      grow_and_emplace_back(std::forward<Args>(args)...);
      return;
    }
    construct(slots_ + wrap(head_ + size_), std::forward<Args>(args)...);
    ++size_;
  }

  void push_front(T value) {
    if (size_ == capacity_) grow();
    const std::size_t at = wrap(head_ + capacity_ - 1);
    ::new (static_cast<void*>(slots_ + at)) T(std::move(value));
    head_ = at;
    ++size_;
  }

  void pop_front() {
    std::destroy_at(slots_ + head_);
    head_ = wrap(head_ + 1);
    --size_;
  }

  // Moves the front element out and pops it.
  T take_front() {
    T value = std::move(front());
    pop_front();
    return value;
  }

  void clear() {
    while (size_ > 0) pop_front();
    head_ = 0;
  }

 private:
  // capacity_ is zero or a power of two.
  std::size_t wrap(std::size_t i) const { return i & (capacity_ - 1); }

  template <class... Args>
  [[gnu::noinline]] void grow_and_emplace_back(Args&&... args) {
    // The arguments may refer into this queue: built before it grows.
    T value = make(std::forward<Args>(args)...);
    grow();
    ::new (static_cast<void*>(slots_ + wrap(head_ + size_)))
        T(std::move(value));
    ++size_;
  }

  // An aggregate (a subscription's Delivery) is initialised from its
  // fields with braces, anything else by a constructor.
  template <class... Args>
  static void construct(T* at, Args&&... args) {
    if constexpr (std::is_aggregate_v<T>) {
      ::new (static_cast<void*>(at)) T{std::forward<Args>(args)...};
    } else {
      ::new (static_cast<void*>(at)) T(std::forward<Args>(args)...);
    }
  }
  template <class... Args>
  static T make(Args&&... args) {
    if constexpr (std::is_aggregate_v<T>) {
      return T{std::forward<Args>(args)...};
    } else {
      return T(std::forward<Args>(args)...);
    }
  }

  void grow() {
    const std::size_t next = capacity_ == 0 ? 16 : capacity_ * 2;
    T* slots = std::allocator<T>().allocate(next);
    for (std::size_t i = 0; i < size_; ++i) {
      T& from = slots_[wrap(head_ + i)];
      ::new (static_cast<void*>(slots + i)) T(std::move(from));
      std::destroy_at(&from);
    }
    if (slots_ != nullptr) std::allocator<T>().deallocate(slots_, capacity_);
    slots_ = slots;
    capacity_ = next;
    head_ = 0;
  }

  void release() {
    clear();
    if (slots_ != nullptr) std::allocator<T>().deallocate(slots_, capacity_);
    slots_ = nullptr;
    capacity_ = 0;
  }

  T* slots_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace herald
