# Regenerates pyyaml.json: for each YAML input, what PyYAML's safe_load
# then yaml.dump(default_flow_style=False, sort_keys=False) writes. Run
# with any python3 that has PyYAML (today's Lola's YAML library):
#   python3 gen_pyyaml.py > pyyaml.json
import json, yaml

inputs = [
    "name: a\ndescription: short\n",
    "description: " + " ".join(["word%d" % i for i in range(40)]) + "\n",
    "description: 'It''s: quoted'\nmodel: sonnet\n",
    "tools:\n  - Read\n  - Write\nmodel: opus\n",
    "tools: [Read, Grep, Glob]\n",
    "flag: yes\nnum: 0777\nhex: 0x1F\nf: 0.5\nbig: 1.0e+20\ns: '123'\nn: ~\ne: ''\non: off\n",
    "nested:\n  a: 1\n  b:\n    - x\n    - y\nempty_list: []\nempty_map: {}\n",
    "description: caf\u00e9 cr\u00e8me\n",
    "description: \"tab\\there\"\n",
    "description: \"line one\\nline two\"\n",
    "list_of_maps:\n  - a: 1\n    b: 2\n  - c: 3\n",
    "description: 'Use when: the user asks # not a comment?'\n",
    "description: '- leading dash'\nother: '#hash'\nq: '\"dq\"'\n",
    "description: '  padded  '\n",
    "argument-hint: <file> [--flag]\n",
    "description: " + "x" * 100 + " tail\n",
    "description: \"" + " ".join(["it's"] * 30) + "\"\n",
    "description: \"" + " ".join(["\u00e9t\u00e9"] * 30) + "\"\n",
    "date: 2024-01-02\n",
    "k: '='\nm: '<<'\n",
    "seq_in_seq:\n- - a\n  - b\n- c\n",
    "dup: 1\nother: 2\ndup: 3\n",
    "true: 1\n3: three\n",
    "folded: >\n  a b\n  c\n",
    "literal: |\n  line1\n  line2\n",
]
out = []
for src in inputs:
    d = yaml.safe_load(src)
    out.append({"input": src, "dump": yaml.dump(d, default_flow_style=False, sort_keys=False)})
print(json.dumps(out, indent=1, ensure_ascii=False))
