// A test probe, not an extension: it runs the SDK's YAML reader and writer
// on each module file (the file is a frontmatter block's YAML) and writes
// the dump to out/<path>, or "<unread>" when the reader declines, so the
// conformance module can check them against PyYAML's own output
// (TestYAMLDumpMatchesPyYAML; AssemblyScript has no test runner here).
import { Request, PlanBuilder, register } from "./lola";
import { parse, dump } from "./yaml";
export { lola_abi_version, lola_alloc, lola_run, lola_plan_ptr, lola_plan_len } from "./lola";

function handle(req: Request, plan: PlanBuilder): void {
  for (let i = 0; i < req.modules.length; i++) {
    const m = req.modules[i];
    for (let j = 0; j < m.files.length; j++) {
      const fields = parse(m.files[j].content);
      plan.write("out/" + m.files[j].path, fields == null ? "<unread>" : dump(fields!));
    }
  }
}

register(handle);
