# What the kernels need from the compiler, OpenMP and the CPU (platform.h).

cdef extern from "platform.h":
    int argmin_max_threads() nogil
    int argmin_thread_num() nogil
    double argmin_seconds() nogil
    int argmin_in_parallel() nogil
    int argmin_cpu_is_intel() nogil
    enum: REGISTER_BYTES "ARGMIN_REGISTER_BYTES"
    enum: COMPILED_LEVEL "ARGMIN_COMPILED_LEVEL"
    enum: ADDRESS_SANITIZED "ARGMIN_ADDRESS_SANITIZED"
    void prefetch "argmin_prefetch"(const void* p) nogil
    void prefetch_l2 "argmin_prefetch_l2"(const void* p) nogil
    void store_past_caches "argmin_store_past_caches"(int64_t* p, int64_t v) nogil
    void drain_stores "argmin_drain_stores"() nogil
    void line_past_caches "argmin_line_past_caches"(int64_t* p, const int64_t* q) nogil


cdef enum:
    CACHE_LINE = 64
    # The smallest page of memory.
    PAGE_BYTES = 4096
    # Most dimensions of an array (numpy's limit), and most threads of a call.
    MAX_DIMS = 64
    MAX_THREADS = 1024
    # Loads and earlier stores whose addresses agree in their low 12 bits
    # (ALIAS_SPAN) wait for each other as if they were the same address.
    # Scratch (a column chunk's running best, a short row's keys) is stored
    # SCRATCH_SHIFT bytes past the input in that span: the loads of the input
    # then never meet its recent stores.
    ALIAS_SPAN = 4096
    SCRATCH_SHIFT = 3072


cdef inline void* on_cache_line(void* p) noexcept nogil:
    # p rounded up to a cache line, for stack arrays that vectors store to
    # and load from: a vector that straddles two lines costs about as much
    # as two.
    return <void*>((<size_t>p + CACHE_LINE - 1) & ~(<size_t>(CACHE_LINE - 1)))
