// The shared conformance fixture (schema/vectors/requests/README.md):
// uninstall deletes out/<module> per module; every other operation writes
// each module file to out/<module>/<path> in its own encoding; a module
// without a name is a bad request.
import { Request, PlanBuilder, register } from "./lola";
export { lola_abi_version, lola_alloc, lola_run, lola_plan_ptr, lola_plan_len } from "./lola";

function handle(req: Request, plan: PlanBuilder): void {
  for (let i = 0; i < req.modules.length; i++) {
    const m = req.modules[i];
    if (m.name == "") {
      plan.badRequest("a module has no name");
      return;
    }
    if (req.operation == "uninstall") {
      plan.delete("out/" + m.name);
      continue;
    }
    for (let j = 0; j < m.files.length; j++) {
      plan.writeFile("out/" + m.name + "/" + m.files[j].path, m.files[j]);
    }
  }
}

register(handle);
