// Embind declarations of the program layer (no logic: it lives in cpp/js/trace_api).
#include <emscripten/bind.h>

#include "js/trace_api.h"

namespace {

using namespace emscripten;
using shardlab::js::AsyncRuntime;
using shardlab::js::JsCond;
using shardlab::js::JsScan;
using shardlab::js::JsWhile;
using shardlab::js::DeviceMesh;
using shardlab::js::JsFunction;
using shardlab::js::JsProgram;
using shardlab::js::JsShardMap;
using shardlab::js::JsTrace;
using shardlab::js::JsVmap;
using shardlab::js::ProgramRun;

}  // namespace

EMSCRIPTEN_BINDINGS(shardlab_program) {
  class_<JsProgram>("Program")
      .function("toString", &JsProgram::text)
      .function("textWithConsts", &JsProgram::text_with_consts)
      .function("compiledText", &JsProgram::compiled_text)
      .function("printedBodies", &JsProgram::printed_bodies)
      .function("toJSON", &JsProgram::json)
      .function("loweredJSON", &JsProgram::lowered_json)
      .function("numEquations", &JsProgram::num_equations)
      .function("inAvals", &JsProgram::in_avals)
      .function("outAvals", &JsProgram::out_avals)
      .function("outSpecs", &JsProgram::out_specs);
  class_<JsTrace>("Trace")
      .constructor<>()
      .function("input", &JsTrace::input)
      .function("emit", &JsTrace::emit)
      .function("bind", &JsTrace::bind)
      .function("build", &JsTrace::build);
  class_<JsShardMap>("ShardMapTrace")
      .constructor<JsTrace&, const DeviceMesh&, const val&, bool, const val&>()
      .function("body", &JsShardMap::body, allow_raw_pointers())
      .function("blocks", &JsShardMap::blocks)
      .function("finish", &JsShardMap::finish);
  class_<JsFunction>("FunctionTrace")
      .constructor<JsTrace&, const val&, bool>()
      .function("body", &JsFunction::body, allow_raw_pointers())
      .function("inputs", &JsFunction::inputs)
      .function("primal", &JsFunction::primal)
      .function("vjp", &JsFunction::vjp)
      .function("linearTranspose", &JsFunction::linear_transpose)
      .function("jvp", &JsFunction::jvp)
      .function("grad", &JsFunction::grad)
      .function("customJvpCall", &JsFunction::custom_jvp_call)
      .function("jitCall", &JsFunction::jit_call)
      .function("checkpointCall", &JsFunction::checkpoint_call)
      .function("customVjpCall", &JsFunction::custom_vjp_call)
      .function("customJvpCallOfRule", &JsFunction::custom_jvp_call_of_rule)
      .function("customVjpCallOfFwd", &JsFunction::custom_vjp_call_of_fwd);
  class_<JsCond>("CondTrace")
      .constructor<JsTrace&, const val&>()
      .function("beginBranch", &JsCond::begin_branch, allow_raw_pointers())
      .function("inputs", &JsCond::inputs)
      .function("endBranch", &JsCond::end_branch)
      .function("finish", &JsCond::finish);
  class_<JsScan>("ScanTrace")
      .constructor<JsTrace&, const val&, const val&, const val&, bool>()
      .function("body", &JsScan::body, allow_raw_pointers())
      .function("inputs", &JsScan::inputs)
      .function("finish", &JsScan::finish);
  class_<JsWhile>("WhileTrace")
      .constructor<JsTrace&, const val&>()
      .function("beginCond", &JsWhile::begin_cond, allow_raw_pointers())
      .function("endCond", &JsWhile::end_cond)
      .function("beginBody", &JsWhile::begin_body, allow_raw_pointers())
      .function("inputs", &JsWhile::inputs)
      .function("finish", &JsWhile::finish);
  class_<JsVmap>("VmapTrace")
      .constructor<JsTrace&, const val&, const val&, const val&, const val&>()
      .function("body", &JsVmap::body, allow_raw_pointers())
      .function("inputs", &JsVmap::inputs)
      .function("finish", &JsVmap::finish);
  class_<ProgramRun>("ProgramRun")
      .function("size", &ProgramRun::size)
      .function("output", &ProgramRun::output)
      .function("statePtr", &ProgramRun::state_ptr)
      .function("errorKind", &ProgramRun::error_kind)
      .function("errorMessage", &ProgramRun::error_message);
  function("interpretProgram", &shardlab::js::interpret_js);
  function("programFromJson", &shardlab::js::program_from_json_js);
  function("laxFunctions", &shardlab::js::lax_functions_js);
  function("collectiveProgram", &shardlab::js::collective_program_js);
  function("submitProgram", optional_override([](AsyncRuntime& rt, int id, const DeviceMesh& mesh, const JsProgram& p,
                                                 const val& inputs) { return rt.submit_program(id, mesh, p.executable, inputs); }));
}
