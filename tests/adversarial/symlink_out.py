# Reads through links: one shipped beside it in the submission, one it makes in its run folder.
import json
here = os.path.dirname(os.path.abspath(__file__))
for path in json.loads('@PATHS@'):
    try:
        os.symlink(path, "peek")
    except OSError:
        pass
    for link in (os.path.join(here, "notes.txt"), "peek"):
        try:
            with open(link, "rb") as f:
                print(f"LEAK {link} {len(f.read())}", flush=True)
        except OSError as problem:
            print(f"no {link}: {problem.strerror}", flush=True)
    try:
        os.unlink("peek")
    except OSError:
        pass
opening()
input()
