"""The HTTP API described as an OpenAPI 3.1 document (served at /openapi.json)."""

_ERROR = {"description": "refused, with the reason", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def document(max_bytes: int) -> dict:
    ident = [{"name": "ident", "in": "path", "required": True, "schema": {"type": "integer"}}]
    student = [{"bearer": []}]
    return {
        "openapi": "3.1.0",
        "info": {"title": "game-harness self-check service", "version": "1"},
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "a student's token"},
                                "instructor": {"type": "http", "scheme": "basic",
                                               "description": "any user name, the instructor token as password (or Bearer)"}},
            "schemas": {
                "Error": {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]},
                "Accepted": {"type": "object", "properties": {"id": {"type": "integer"}, "state": {"type": "string"},
                                                              "position": {"type": "integer"}, "url": {"type": "string"}}},
                "Submission": {"type": "object", "properties": {
                    "id": {"type": "integer"}, "game": {"type": "string"},
                    "state": {"enum": ["queued", "running", "done"]},
                    "position": {"type": "integer", "description": "queued submissions ahead (when queued)"},
                    "cases_done": {"type": "integer", "description": "public cases finished so far (while they run on this machine)"},
                    "cases_total": {"type": "integer", "description": "public cases in all (while they run); hidden cases run after the result is out, unseen"},
                    "text": {"type": "string", "description": "what a local `harness check` prints (public cases)"},
                    "report": {"type": "string", "description": "the HTML report's path"},
                    "result": {"type": "object", "description": "public cases, their score (not the grade), the hidden count"},
                    "own_game": {"$ref": "#/components/schemas/OwnGame"}}},
                "OwnGame": {"type": "object", "description": "a game of the student's own where the program and "
                                                             "the handout part ways (`harness serve --counterexamples N`)",
                            "properties": {
                                "status": {"enum": ["found", "none found", "limit reached for today", "searching",
                                                    "not computed"]},
                                "why": {"type": "string", "description": "why there is no game (a limit, no build)"},
                                "game": {"type": "object", "description": "inputs (typed up to the first differing "
                                         "turn), turn, expected and actual (both outputs at that turn, nothing of "
                                         "the handout after it), expected_end, actual_end, start, rubric, "
                                         "partly_shrunk, replay (the command that replays it)"},
                                "text": {"type": "string", "description": "the game as `harness check --counterexample` prints it"}}},
            },
        },
        "paths": {
            "/api/submissions": {
                "post": {"summary": "upload a submission for a self-check (stored before the answer); the token "
                                    "in the Authorization header is checked before the body is read",
                         "security": student,
                         "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
                             "type": "object", "required": ["files"],
                             "properties": {"game": {"type": "string"},
                                            "files": {"type": "array", "items": {"type": "string", "format": "binary"},
                                                      "description": f"source files or one archive; at most {max_bytes} bytes in all"}}}}}},
                         "responses": {"202": {"description": "queued", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Accepted"}}}},
                                       "400": _ERROR, "401": _ERROR, "403": _ERROR, "408": _ERROR, "409": _ERROR,
                                       "413": _ERROR, "422": _ERROR, "429": _ERROR, "503": _ERROR}},
                "get": {"summary": "your submissions", "security": student,
                        "responses": {"200": {"description": "the list"}, "401": _ERROR}}},
            "/api/submissions/{ident}": {"get": {
                "summary": "a submission's state, then its result (public cases only) and its own game; "
                           "a wait is held while the own game is searched too", "security": student,
                "parameters": ident + [{"name": "wait", "in": "query", "required": False,
                                        "schema": {"type": "number", "minimum": 0, "maximum": 30},
                                        "description": "hold the answer until the state changes, at most this many seconds"}],
                "responses": {"200": {"description": "the state", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Submission"}}}},
                              "401": _ERROR, "404": _ERROR,
                              "429": {"description": "more long polls of this student held at once than the service allows"}}}},
            "/api/submissions/{ident}/report": {"get": {
                "summary": "the HTML report of the public cases", "security": student, "parameters": ident,
                "responses": {"200": {"description": "HTML", "content": {"text/html": {}}}, "401": _ERROR, "404": _ERROR,
                              "409": _ERROR}}},
            "/instructor": {"get": {"summary": "the class page over every student's latest self-check",
                                    "security": [{"instructor": []}],
                                    "parameters": [{"name": "game", "in": "query", "schema": {"type": "string"}}],
                                    "responses": {"200": {"description": "HTML"}, "401": _ERROR}}},
            "/instructor/gradebook.csv": {"get": {"summary": "the gradebook of the latest self-checks",
                                                  "security": [{"instructor": []}],
                                                  "responses": {"200": {"description": "CSV"}, "401": _ERROR}}},
            "/instructor/counterexamples": {"get": {
                "summary": "the students' own games of a game: shown, played to the next submission, no longer "
                           "differing there, the handout's turns shown, searches that found none or were past the limit",
                "security": [{"instructor": []}],
                "parameters": [{"name": "game", "in": "query", "schema": {"type": "string"}}],
                "responses": {"200": {"description": "JSON"}, "401": _ERROR, "404": _ERROR}}},
            "/instructor/students/{student}": {"get": {"summary": "a student's history", "security": [{"instructor": []}],
                                                       "parameters": [{"name": "student", "in": "path", "required": True,
                                                                       "schema": {"type": "string"}}],
                                                       "responses": {"200": {"description": "JSON"}, "401": _ERROR}}},
            "/instructor/submissions/{ident}": {"get": {
                "summary": "whether a submission's whole result (hidden cases included) is written",
                "security": [{"instructor": []}],
                "parameters": ident + [{"name": "wait", "in": "query", "schema": {"type": "number", "maximum": 30},
                                        "description": "hold the answer until the whole result is written"}],
                "responses": {"200": {"description": "JSON: id, student, game, state, graded, report"},
                              "401": _ERROR, "404": _ERROR}}},
            "/instructor/submissions/{ident}/report": {"get": {"summary": "a submission's full report, hidden cases included",
                                                               "security": [{"instructor": []}], "parameters": ident,
                                                               "responses": {"200": {"description": "HTML"}, "401": _ERROR, "404": _ERROR}}},
            "/": {"get": {"summary": "the upload page", "responses": {"200": {"description": "HTML"}}}},
            "/openapi.json": {"get": {"summary": "this document", "responses": {"200": {"description": "JSON"}}}},
        },
    }
