# Stand-in for python-frontmatter (not installable offline here): the split
# and trimming python-frontmatter 1.x does for YAML frontmatter, with PyYAML's
# safe loader, which is what today's Lola calls through lola.frontmatter.
import re
import yaml

_BOUNDARY = re.compile(r"^-{3,}\s*$", re.MULTILINE)


class Post:
    def __init__(self, content, metadata):
        self.content = content
        self.metadata = metadata


def loads(text):
    text = text.strip()
    if not _BOUNDARY.match(text):
        return Post(text, {})
    try:
        _, fm, content = _BOUNDARY.split(text, 2)
    except ValueError:
        return Post(text, {})
    meta = yaml.load(fm, Loader=yaml.SafeLoader)
    return Post(content.strip(), meta if isinstance(meta, dict) else {})


def load(path):
    with open(path, encoding="utf-8") as f:
        return loads(f.read())
