// Symbolizing a captured stack: names, file:line and layers, looked up once per address.
//
// C++ frames come from DWARF through elfutils' libdwfl (the process's modules as /proc/self/maps
// lists them): the function from the ELF symbol table, demangled; file:line from the line table;
// and the calls the compiler inlined at that address from the DWARF scopes, each as a frame of its
// own, as a debugger shows them (Note [Inlined frames]). Python frames come from the provider.
#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "profiler/Stack.h"

// Note [Inlined frames]
// ~~~~~~~~~~~~~~~~~~~~~
// At -O2 most of the dispatcher's templates (KernelFunction::call, the unboxing wrappers) and many
// small functions are inlined: one return address then stands for a chain of calls. The DWARF
// scopes at that address list them, innermost first, as DW_TAG_inlined_subroutine entries inside
// the DW_TAG_subprogram that was really called. The innermost runs at the line the line table
// gives for the address; each inlined call's own DW_AT_call_file / DW_AT_call_line is where its
// caller stands. So one address becomes [innermost inline @ line of pc, ..., the function @ call
// site of the outermost inline] — the frames gdb and eu-addr2line -i print.

namespace opscope::profiler {
namespace {

// The demangled name; nullopt when the demangler cannot read it.
std::optional<std::string> try_demangle(const char* symbol) {
  std::string name = symbol;
  name = name.substr(0, name.find('@'));     // a version: __libc_start_main@@GLIBC_2.34
  if (!name.starts_with("_Z")) return name;  // a C name
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || d == nullptr) return std::nullopt;
  std::string out(d);
  std::free(d);
  return out;
}

std::string demangle(const char* symbol) {
  if (symbol == nullptr) return {};
  return try_demangle(symbol).value_or(symbol);
}

std::string_view basename(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// --- DWARF names ---------------------------------------------------------------------------------

// The DIE a concrete inlined / out-of-line instance stands for (its declaration).
Dwarf_Die origin_of(Dwarf_Die die) {
  for (int hops = 0; hops < 8; ++hops) {
    Dwarf_Attribute attr;
    Dwarf_Die next;
    Dwarf_Attribute* a = dwarf_attr(&die, DW_AT_abstract_origin, &attr);
    if (a == nullptr) a = dwarf_attr(&die, DW_AT_specification, &attr);
    if (a == nullptr || dwarf_formref_die(a, &next) == nullptr) break;
    die = next;
  }
  return die;
}

// A function DIE's name: the demangled linkage name when it has one, else its name qualified by
// the namespaces and classes around its declaration.
std::string function_name(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  const char* linkage = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
  if (linkage == nullptr)
    linkage = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
  if (linkage != nullptr) {
    // Some lambdas' names in templates are beyond the demangler: then the DWARF name it is.
    if (std::optional<std::string> d = try_demangle(linkage)) return *d;
  }
  const char* name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
  if (name == nullptr) return {};
  std::string out = name;
  Dwarf_Die decl = origin_of(*die);
  Dwarf_Die* scopes = nullptr;
  int n = dwarf_getscopes_die(&decl, &scopes);
  for (int i = 1; i < n; ++i) {
    int tag = dwarf_tag(&scopes[i]);
    const char* scope = dwarf_diename(&scopes[i]);
    if (tag == DW_TAG_subprogram) {  // a local class's function (a lambda's operator())
      out = function_name(&scopes[i]) + "::" + out;
      break;
    }
    if (tag == DW_TAG_namespace)
      out = std::string(scope != nullptr ? scope : "(anonymous namespace)") + "::" + out;
    else if (tag == DW_TAG_class_type || tag == DW_TAG_structure_type || tag == DW_TAG_union_type)
      out = std::string(scope != nullptr ? scope : "{lambda}") + "::" + out;
  }
  std::free(scopes);
  return out;
}

// The out-of-line functions of a compile unit, by address range. dwarf_getscopes would find the
// function at an address only when every DIE around it covers the address too, which a lambda's
// function does not: GCC nests its DIE inside the enclosing function's, whose code is elsewhere.
struct FunctionRange {
  Dwarf_Addr low, high;
  Dwarf_Die die;
};

void collect_functions(Dwarf_Die* parent, std::vector<FunctionRange>& out) {
  Dwarf_Die child;
  if (dwarf_child(parent, &child) != 0) return;
  do {
    int tag = dwarf_tag(&child);
    if (tag == DW_TAG_subprogram) {
      Dwarf_Addr base = 0, low = 0, high = 0;
      for (ptrdiff_t off = 0; (off = dwarf_ranges(&child, off, &base, &low, &high)) > 0;)
        out.push_back({low, high, child});
    }
    if (tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
        tag == DW_TAG_union_type || tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block)
      collect_functions(&child, out);
  } while (dwarf_siblingof(&child, &child) == 0);
}

// The scopes that are calls at `pc` inside function `fn`, innermost first, ending with fn itself
// (Note [Inlined frames]).
std::vector<Dwarf_Die> call_scopes(Dwarf_Die fn, Dwarf_Addr pc) {
  std::vector<Dwarf_Die> chain{fn};  // outermost first while built
  Dwarf_Die current = fn;
  for (bool deeper = true; deeper;) {
    deeper = false;
    Dwarf_Die child;
    if (dwarf_child(&current, &child) != 0) break;
    do {
      int tag = dwarf_tag(&child);
      if ((tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block ||
           tag == DW_TAG_try_block || tag == DW_TAG_catch_block) &&
          dwarf_haspc(&child, pc) == 1) {
        if (tag == DW_TAG_inlined_subroutine) chain.push_back(child);
        current = child;
        deeper = true;
        break;
      }
    } while (dwarf_siblingof(&child, &child) == 0);
  }
  return {chain.rbegin(), chain.rend()};
}

// --- the symbol table ----------------------------------------------------------------------------

// Separate debug files are looked up locally by build-id only (/usr/lib/debug/.build-id): never
// through debuginfod, which would download from the network when DEBUGINFOD_URLS is set.
int find_local_debuginfo(Dwfl_Module* mod, void** userdata, const char* modname, Dwarf_Addr base,
                         const char* file_name, const char* debuglink_file, GElf_Word debuglink_crc,
                         char** debuginfo_file_name) {
  return dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
                                      debuglink_crc, debuginfo_file_name);
}

const Dwfl_Callbacks kCallbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = find_local_debuginfo,
    .section_address = nullptr,
    .debuginfo_path = nullptr,
};

// One address's frames (one per inlined call, innermost first), without layers yet.
using AddressFrames = std::vector<Frame>;

class SymbolTable {
 public:
  ~SymbolTable() {
    if (dwfl_ != nullptr) dwfl_end(dwfl_);
  }

  // Appends the frames of one C++ address (`a` is the address to look up: pc - 1 for return
  // addresses). Cached.
  void append(uintptr_t a, std::vector<Frame>& out) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(a);
    if (it == cache_.end()) it = cache_.emplace(a, look_up(a)).first;
    out.insert(out.end(), it->second.begin(), it->second.end());
  }

 private:
  void report() {
    if (dwfl_ == nullptr) dwfl_ = dwfl_begin(&kCallbacks);
    if (dwfl_ == nullptr) return;
    dwfl_report_begin(dwfl_);
    dwfl_linux_proc_report(dwfl_, getpid());
    dwfl_report_end(dwfl_, nullptr, nullptr);
  }

  Dwfl_Module* module_of(Dwarf_Addr a) {
    if (dwfl_ == nullptr) report();
    if (dwfl_ == nullptr) return nullptr;
    Dwfl_Module* m = dwfl_addrmodule(dwfl_, a);
    if (m == nullptr) {  // a library loaded since the last report (OpenBLAS is dlopen'ed late)
      report();
      m = dwfl_addrmodule(dwfl_, a);
    }
    return m;
  }

  AddressFrames look_up(uintptr_t a) {
    AddressFrames frames;
    Frame base;
    base.pc = a;
    Dwfl_Module* mod = module_of(a);
    if (mod == nullptr) {
      frames.push_back(base);
      return frames;
    }
    Dwarf_Addr start = 0;
    const char* path =
        dwfl_module_info(mod, nullptr, &start, nullptr, nullptr, nullptr, nullptr, nullptr);
    base.module = std::string(basename(path != nullptr ? path : ""));

    GElf_Off offset = 0;
    GElf_Sym sym;
    const char* symbol = dwfl_module_addrinfo(mod, a, &offset, &sym, nullptr, nullptr, nullptr);
    std::string outer_name = symbol != nullptr ? demangle(symbol) : std::string();

    // The line the address is on.
    std::string file;
    int line = 0;
    if (Dwfl_Line* l = dwfl_module_getsrc(mod, a)) {
      const char* src = dwfl_lineinfo(l, nullptr, &line, nullptr, nullptr, nullptr);
      if (src != nullptr) file = source_relative(src);
    }

    // The inlined calls around it (Note [Inlined frames]).
    Dwarf_Addr bias = 0;
    Dwarf_Die* cu = dwfl_module_addrdie(mod, a, &bias);
    std::vector<Dwarf_Die> scopes;
    if (cu != nullptr) {
      if (const FunctionRange* fn = function_at(cu, a - bias))
        scopes = call_scopes(fn->die, a - bias);
    }
    Dwarf_Files* files = nullptr;
    size_t nfiles = 0;
    if (!scopes.empty() && dwarf_getsrcfiles(cu, &files, &nfiles) != 0) files = nullptr;
    for (Dwarf_Die& scope : scopes) {
      Frame f = base;
      f.file = file;
      f.line = line;
      if (dwarf_tag(&scope) == DW_TAG_subprogram) {
        f.function = outer_name.empty() ? function_name(&scope) : outer_name;
        frames.push_back(std::move(f));
        break;
      }
      f.function = function_name(&scope);
      f.inlined = true;
      frames.push_back(std::move(f));
      // Where the caller stands: the inlined call's site.
      Dwarf_Attribute attr;
      Dwarf_Word call_file = 0, call_line = 0;
      file.clear();
      line = 0;
      if (dwarf_formudata(dwarf_attr(&scope, DW_AT_call_file, &attr), &call_file) == 0 &&
          files != nullptr && call_file < nfiles) {
        const char* src = dwarf_filesrc(files, call_file, nullptr, nullptr);
        if (src != nullptr) file = source_relative(src);
      }
      if (dwarf_formudata(dwarf_attr(&scope, DW_AT_call_line, &attr), &call_line) == 0)
        line = static_cast<int>(call_line);
    }
    if (frames.empty() || frames.back().inlined) {  // no DWARF (or no subprogram): the symbol
      Frame f = base;
      f.function = outer_name;
      f.file = file;
      f.line = line;
      frames.push_back(std::move(f));
    }
    return frames;
  }

  // The function whose code holds `pc` (a DWARF address) in compile unit `cu`.
  const FunctionRange* function_at(Dwarf_Die* cu, Dwarf_Addr pc) {
    auto [it, fresh] = functions_.try_emplace(cu->addr);
    std::vector<FunctionRange>& ranges = it->second;
    if (fresh) {
      collect_functions(cu, ranges);
      std::sort(ranges.begin(), ranges.end(),
                [](const FunctionRange& x, const FunctionRange& y) { return x.low < y.low; });
    }
    auto after = std::upper_bound(ranges.begin(), ranges.end(), pc,
                                  [](Dwarf_Addr p, const FunctionRange& r) { return p < r.low; });
    for (auto r = after; r != ranges.begin();) {
      --r;
      if (pc < r->high) return &*r;  // the nearest start below pc that still covers it
    }
    return nullptr;
  }

  std::mutex mu_;
  Dwfl* dwfl_ = nullptr;
  std::unordered_map<uintptr_t, AddressFrames> cache_;
  std::unordered_map<const void*, std::vector<FunctionRange>> functions_;  // per compile unit
};

SymbolTable& symbol_table() {
  static SymbolTable* table = new SymbolTable();  // never destroyed: used until the process ends
  return *table;
}

// --- layers --------------------------------------------------------------------------------------

std::optional<Layer> layer_of_source(std::string_view file) {
  static constexpr std::pair<std::string_view, Layer> kFolders[] = {
      {"core/python/", Layer::Binding},    {"core/dispatch/", Layer::Dispatcher},
      {"core/autograd/", Layer::Autograd}, {"core/ops/", Layer::Kernel},
      {"core/runtime/", Layer::Runtime},   {"core/tensor/", Layer::Runtime},
      {"profiler/", Layer::Profiler},
      // The CUDA backend: its bindings, its kernels, and the rest (CUDAGuard, CUDAStream,
      // CUDAEvent, CUDACachingAllocator) is the device runtime; first match wins.
      {"core/cuda/python/", Layer::Binding}, {"core/cuda/kernels/", Layer::Kernel},
      {"core/cuda/Copy", Layer::Kernel},     {"core/cuda/copy_kernels", Layer::Kernel},
      {"core/cuda/Factories", Layer::Kernel}, {"core/cuda/", Layer::Runtime},
  };
  for (const auto& [folder, layer] : kFolders)
    if (file.starts_with(folder)) return layer;
  return std::nullopt;
}

bool is_opscope_module(std::string_view module) {
  return module.starts_with("libopscope") || module.starts_with("_C.") ||
         module.starts_with("opscope");
}

Layer layer_of_module(std::string_view module) {
  if (module.starts_with("libopenblas") || module.starts_with("libblas") ||
      module.starts_with("libcublas"))  // cuBLAS and cuBLASLt: the GPU's BLAS
    return Layer::Blas;
  if (module.starts_with("libcudart") || module.starts_with("libcuda.so")) return Layer::Runtime;
  if (module.starts_with("python3") || module.starts_with("libpython")) return Layer::CPython;
  static constexpr std::string_view kSystem[] = {"libc.so", "libstdc++", "libgcc_s",   "libgomp",
                                                 "libm.so", "ld-linux",  "libpthread", "libdl.so"};
  for (std::string_view s : kSystem)
    if (module.starts_with(s)) return Layer::Libc;
  return Layer::Other;
}

// For opscope frames without a source file of the tree (no debug info): by namespace.
std::optional<Layer> layer_of_name(std::string_view function) {
  static constexpr std::pair<std::string_view, Layer> kNamespaces[] = {
      {"opscope::python::", Layer::Binding},
      {"opscope::autograd::", Layer::Autograd},
      {"opscope::cpu::", Layer::Kernel},
      {"opscope::composite::", Layer::Kernel},
      {"opscope::ops::", Layer::Kernel},
      {"opscope::profiler::", Layer::Profiler},
      {"opscope::blas::", Layer::Runtime},
      {"opscope::cuda::CUDA", Layer::Runtime},  // CUDAGuard, CUDAStream, CUDAEvent, ...
      {"opscope::cuda::DeviceCachingAllocator", Layer::Runtime},
      {"opscope::cuda::", Layer::Kernel},
      {"opscope::Dispatcher", Layer::Dispatcher},
      {"opscope::OperatorEntry", Layer::Dispatcher},
      {"opscope::KernelFunction", Layer::Dispatcher},
  };
  for (const auto& [prefix, layer] : kNamespaces)
    if (function.starts_with(prefix)) return layer;
  return std::nullopt;
}

// Sorts frames into layers. An opscope frame from outside the tree's files (a std::function or
// std::vector template instantiated in our code) belongs to the layer of the opscope code that
// called it: the nearest outer frame with a layer of its own.
void classify(std::vector<Frame>& frames) {
  std::vector<bool> inherit(frames.size(), false);
  for (size_t i = 0; i < frames.size(); ++i) {
    Frame& f = frames[i];
    if (f.is_python) {
      f.layer = Layer::Python;
    } else if (std::optional<Layer> l = layer_of_source(f.file)) {
      f.layer = *l;
    } else if (is_opscope_module(f.module)) {
      std::optional<Layer> by_name = f.file.empty() ? layer_of_name(f.function) : std::nullopt;
      // pybind11's own frames in the extension are binding, unless an outer frame says more.
      f.layer = by_name.value_or(f.module.starts_with("_C.") ? Layer::Binding : Layer::Other);
      inherit[i] = !by_name.has_value() && !f.file.starts_with("tests/");
    } else {
      f.layer = layer_of_module(f.module);
    }
  }
  std::optional<Layer> outer;
  for (size_t i = frames.size(); i-- > 0;) {
    if (inherit[i]) {
      if (outer) frames[i].layer = *outer;
    } else if (is_opscope_module(frames[i].module)) {
      outer = frames[i].layer;
    } else {
      outer.reset();
    }
  }
}

}  // namespace

std::string_view to_string(Layer layer) {
  switch (layer) {
    case Layer::Python:
      return "python";
    case Layer::Binding:
      return "binding";
    case Layer::Dispatcher:
      return "dispatcher";
    case Layer::Autograd:
      return "autograd";
    case Layer::Kernel:
      return "kernel";
    case Layer::Runtime:
      return "runtime";
    case Layer::Blas:
      return "blas";
    case Layer::CPython:
      return "cpython";
    case Layer::Libc:
      return "libc";
    case Layer::Profiler:
      return "profiler";
    case Layer::Other:
      return "other";
  }
  return "other";
}

std::string source_relative(std::string_view path) {
  static const std::string root =
      std::filesystem::path(OPSCOPE_SOURCE_DIR).lexically_normal().string();
  std::string p = std::filesystem::path(path).lexically_normal().string();
  if (!root.empty() && p.size() > root.size() && p.compare(0, root.size(), root) == 0)
    return p.substr(root.back() == '/' ? root.size() : root.size() + 1);
  return p;
}

std::vector<Frame> symbolize(const RawStack& stack) {
  std::vector<Frame> out;
  out.reserve(stack.size() * 2);
  size_t next_python = 0;
  auto append_python_at = [&](size_t position) {
    for (; next_python < stack.python.size() && stack.python[next_python].position <= position;
         ++next_python) {
      Frame f;
      f.is_python = true;
      if (const PythonFramesProvider* p = stack.provider()) {
        p->describe(stack.python[next_python], f.function, f.file, f.line);
        f.file = source_relative(f.file);
      }
      out.push_back(std::move(f));
    }
  };
  for (size_t i = 0; i < stack.pcs.size(); ++i) {
    append_python_at(i);
    uintptr_t pc = stack.pcs[i];
    symbol_table().append(i < stack.exact_pcs ? pc : pc - 1, out);
  }
  append_python_at(stack.pcs.size());
  classify(out);
  return out;
}

}  // namespace opscope::profiler
