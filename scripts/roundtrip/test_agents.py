"""The agents' own tests, on hand-written documents in the conventions of docs/targets/ai.md, the
MCP binding and docs/targets/agent-skills.md (no wellgen, no Prism): `python3 -m unittest discover -s scripts/roundtrip`."""
import base64
import json
import os
import re
import shutil
import tempfile
import unittest

import ai_agent
import mcp_agent
import notation
import skills_agent
from prism import absent_optional_object, classify, form_array, to_prism, unroutable
from values import from_pattern, value_for


class Notation(unittest.TestCase):
    def test_every_constraint_in_its_order(self):
        p = notation.parse('string, required, in header, format uuid, example "a, b" -- The id -- really')
        self.assertEqual((p.kind, p.required, p.place), ("string", True, "header"))
        self.assertEqual(p.schema["format"], "uuid")
        self.assertEqual(p.schema["example"], "a, b")
        self.assertEqual(p.description, "The id -- really")

    def test_allowed_values_quoted_and_typed(self):
        self.assertEqual(notation.parse('string, optional, "a|b"|c|"x, y"').schema["enum"], ["a|b", "c", "x, y"])
        self.assertEqual(notation.parse("integer, required, 1|2|3").schema["enum"], [1, 2, 3])
        self.assertEqual(notation.parse("integer, required, const 7").schema["const"], 7)

    def test_fields_and_items_nest(self):
        p = notation.parse("array, required, items object {id: integer, tags: array items string, owner: object {name: string}}")
        item = p.schema["items"]
        self.assertEqual(item["required"], ["id", "tags", "owner"])
        self.assertEqual(item["properties"]["owner"]["properties"]["name"], {"type": "string"})
        self.assertEqual(value_for(p.schema), [{"id": 1, "tags": ["abc"], "owner": {"name": "abc"}}])

    def test_nested_allowed_values(self):
        p = notation.parse('object, required, fields {sku: object {name: string Basic|"Premium, v2"}, '
                           '"a:b": integer const 3}')
        self.assertEqual(p.schema["properties"]["sku"]["properties"]["name"]["enum"], ["Basic", "Premium, v2"])
        self.assertEqual(p.schema["properties"]["a:b"]["const"], 3)
        self.assertEqual(value_for(p.schema), {"sku": {"name": "Basic"}, "a:b": 3})
        q = notation.parse("array, required, items string pdf|docx")
        self.assertEqual(value_for(q.schema), ["pdf"])

    def test_nested_formats(self):
        p = notation.parse('object, required, fields {tenantId: string format uuid, at: string format "a b" x|y, '
                           'ids: array items string format email}')
        props = p.schema["properties"]
        self.assertEqual(props["tenantId"], {"type": "string", "format": "uuid"})
        self.assertEqual(props["at"], {"type": "string", "format": "a b", "enum": ["x", "y"]})
        self.assertEqual(props["ids"]["items"]["format"], "email")
        value = value_for(p.schema)
        self.assertRegex(value["tenantId"], r"^[0-9a-f]{8}-[0-9a-f]{4}-")
        q = notation.parse("object, required, fields {size: integer min 4398046511104, ratio: number min 0.5 max 2 1|2}")
        props = q.schema["properties"]
        self.assertEqual((props["size"]["minimum"], props["ratio"]["maximum"]), (4398046511104, 2))
        self.assertEqual(props["ratio"]["enum"], [1, 2])
        self.assertEqual(value_for(q.schema)["size"], 4398046511104)
        self.assertIn("@", value["ids"][0])

    def test_body_and_bounds(self):
        p = notation.parse("integer, required, body, min 5, max 9")
        self.assertTrue(p.whole_body)
        self.assertEqual(value_for(p.schema), 5)

    def test_wire_names_and_string_lengths(self):
        p = notation.parse('string, required, in body, name "id", minLength 12, maxLength 36')
        self.assertEqual((p.place, p.wire), ("body", "id"))
        self.assertTrue(12 <= len(value_for(p.schema)) <= 36)

    def test_a_pattern_match_meets_min_length(self):
        p = notation.parse('string, required, pattern "^[a-zA-Z0-9_-]*$", minLength 5, maxLength 50')
        v = value_for(p.schema)
        self.assertTrue(5 <= len(v) <= 50 and re.fullmatch("[a-zA-Z0-9_-]*", v), v)

    def test_what_is_not_the_notation(self):
        for text in ("str, required", "string, maybe", "string, required, default", "string, required, frob x"):
            with self.assertRaises(ValueError, msg=text):
                notation.parse(text)


class Values(unittest.TestCase):
    def test_patterns(self):
        for pattern in (r"^[A-Z]{2}\d{3}$", r"^(indices)|(A[A-F0-9]{6})$", r"[{]build[}]",
                        r"^[a-z0-9-]{3,24}$", r"^\w+@\w+\.com$", r"^(?:foo|bar)-[^/]+$"):
            s = from_pattern(pattern)
            self.assertIsNotNone(s, pattern)
            self.assertTrue(re.search(pattern, s), (pattern, s))
        self.assertIsNone(from_pattern(r"^(?=a)b$"))

    def test_formats_and_bounds(self):
        self.assertEqual(value_for({"type": "string", "format": "email"}), "agent@example.com")
        self.assertEqual(value_for({"type": "string", "minLength": 5}), "abcaa")
        self.assertEqual(value_for({"type": "integer", "minimum": 10, "maximum": 20}), 10)
        self.assertEqual(value_for({"type": "number", "exclusiveMaximum": 0}), -0.5)
        self.assertEqual(value_for({"type": "string", "example": "ok"}), "ok")
        self.assertEqual(value_for({"type": ["null", "boolean"]}), True)
        root = {"$defs": {"n": {"type": "integer", "minimum": 3}}}
        self.assertEqual(value_for({"type": "array", "items": {"$ref": "#/$defs/n"}}, root=root), [3])
        self.assertEqual(value_for({"anyOf": [{"type": "null"}, {"type": "string", "format": "date"}]}), "2024-01-02")


class AiAgent(unittest.TestCase):
    def site(self, doc, extra=None):
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder, True)
        os.makedirs(os.path.join(folder, ".well-known"))
        with open(os.path.join(folder, ".well-known", "ai"), "w") as f:
            json.dump(doc, f)
        for path, value in (extra or {}).items():
            with open(os.path.join(folder, path), "w") as f:
                json.dump(value, f)
        return folder

    def test_default_places_and_explicit_ones(self):
        doc = {"auth": {"type": "apikey", "header": "X-Key"}, "capabilities": [
            {"id": "get", "method": "GET", "endpoint": "/v1/things/{id}", "params": {
                "id": "integer, required", "q": "string, required, a|b", "trace": "string, required, in header",
                "skip": "integer, optional"}},
            {"id": "make", "method": "POST", "endpoint": "/v1/things",
             "description": "Makes one. Request body: application/x-www-form-urlencoded.", "params": {
                 "name": "string, required, example Ann", "dry": "boolean, required, in query"}}]}
        get, make = ai_agent.calls(self.site(doc), "https://api.example.com/.well-known/ai")
        self.assertEqual(get.full_url(), "https://api.example.com/v1/things/1?q=a")
        self.assertEqual(get.headers, {"trace": "abc", "X-Key": "rt-api-key-0123456789"})
        self.assertEqual(make.full_url(), "https://api.example.com/v1/things?dry=true")
        self.assertEqual(make.body, b"name=Ann")
        self.assertEqual(make.headers["Content-Type"], "application/x-www-form-urlencoded")

    def test_auth_docs_into_the_site_and_split_parts(self):
        part = {"aiendpoint": "1.0", "auth": {"type": "apikey", "docs": "/openapi.json#/components/securitySchemes/basic"},
                "capabilities": [{"id": "list", "method": "GET", "endpoint": "/items"}]}
        index = {"aiendpoint": "1.0", "capabilities": [
            {"id": "p", "method": "GET", "endpoint": "https://api.example.com/.well-known/ai-services/p.json"}]}
        folder = self.site(index, {"openapi.json": {"components": {"securitySchemes": {
            "basic": {"type": "http", "scheme": "basic"}}}}})
        os.makedirs(os.path.join(folder, ".well-known", "ai-services"))
        with open(os.path.join(folder, ".well-known", "ai-services", "p.json"), "w") as f:
            json.dump(part, f)
        (call,) = ai_agent.calls(folder, "https://api.example.com/.well-known/ai")
        self.assertEqual(call.url, "https://api.example.com/items")
        raw = base64.b64decode(call.headers["Authorization"].split()[1]).decode()
        self.assertEqual(raw, "rt-user:rt-password")

    def test_auth_docs_to_a_requirement_of_two_schemes(self):
        doc = {"aiendpoint": "1.0", "auth": {"type": "apikey", "docs": "/openapi.json#/security/0"},
               "capabilities": [{"id": "list", "method": "GET", "endpoint": "/items"}]}
        folder = self.site(doc, {"openapi.json": {
            "security": [{"key": [], "client": []}],
            "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"},
                                               "client": {"type": "apiKey", "in": "query", "name": "client"}}}}})
        (call,) = ai_agent.calls(folder, "https://api.example.com/.well-known/ai")
        self.assertEqual(call.headers["X-Key"], "rt-api-key-0123456789")
        self.assertEqual(call.full_url(), "https://api.example.com/items?client=rt-api-key-0123456789")
        self.assertIsNone(call.note)


class McpAgent(unittest.TestCase):
    def test_the_binding_example(self):
        tool = {"name": "t", "inputSchema": {"type": "object", "required": ["thingId", "q", "X-Api-Id", "session", "body_id"],
                                             "properties": {"thingId": {"type": "string", "format": "uuid"},
                                                            "q": {"type": "integer"}, "X-Api-Id": {"type": "string"},
                                                            "session": {"type": "string"}, "body_id": {"type": "string"},
                                                            "payload": {"type": "object"}}},
                "_meta": {"dev.wellgen/http": {
                    "method": "POST", "url": "https://api.example.com/v1/things/{thingId}",
                    "arguments": {"thingId": {"in": "path", "name": "thingId"}, "q": {"in": "query", "name": "q"},
                                  "X-Api-Id": {"in": "header", "name": "X-Api-Id"},
                                  "session": {"in": "cookie", "name": "session"},
                                  "body_id": {"in": "body", "name": "id"}, "payload": {"in": "body", "whole": True}},
                    "contentType": "application/json",
                    "security": [{"type": "mutualTLS"}, {"type": "apiKey", "in": "query", "name": "api_key"}]}}}
        call = mcp_agent.call_for(tool)
        self.assertIsNone(call.refused)
        self.assertEqual(call.full_url(), "https://api.example.com/v1/things/3fa85f64-5717-4562-b3fc-2c963f66afa6"
                                          "?q=1&api_key=rt-api-key-0123456789")
        self.assertEqual(call.header_lines()["Cookie"], "session=abc")
        self.assertEqual(json.loads(call.body), {"id": "abc"})

    def test_schemes_sent_together(self):
        both = {"allOf": [{"type": "apiKey", "in": "header", "name": "X-Key"},
                          {"type": "apiKey", "in": "header", "name": "X-Client"}]}
        tool = {"name": "t", "inputSchema": {"type": "object", "properties": {}},
                "_meta": {"dev.wellgen/http": {"method": "GET", "url": "https://api.example.com/items",
                                                "arguments": {}, "security": [both]}}}
        call = mcp_agent.call_for(tool)
        self.assertEqual((call.headers["X-Key"], call.headers["X-Client"]),
                         ("rt-api-key-0123456789", "rt-api-key-0123456789"))
        self.assertIsNone(call.note)

    def test_an_xml_body_is_nested_elements(self):
        tool = {"name": "t", "inputSchema": {"type": "object", "required": ["Config"],
                                             "properties": {"Config": {"type": "object", "required": ["Name"],
                                                                       "properties": {"Name": {"type": "string", "enum": ["a&b"]}}}}},
                "_meta": {"dev.wellgen/http": {"method": "POST", "url": "https://api.example.com/keys",
                                                "arguments": {"Config": {"in": "body", "name": "Config"}},
                                                "contentType": "text/xml", "security": []}}}
        call = mcp_agent.call_for(tool)
        self.assertEqual(call.body, b"<Config><Name>a&amp;b</Name></Config>")

    def test_no_binding(self):
        self.assertEqual(mcp_agent.call_for({"name": "t", "inputSchema": {}}).refused[0], "no-binding")


SKILL = """# Pets

**`update_pet`**: Update a pet.

```http
PATCH https://api.example.com/pets/7?api_key=<API key>&tag=a%20b
Authorization: Bearer <token>
Content-Type: application/json

{}
```

**`get_owner`**: Get an owner.

```http
GET https://api.example.com/owners/%3Cowner_id%3E
X-API-Key: <API key>
X-Client-Id: <API key: X-Client-Id>
```
"""


class SkillsAgent(unittest.TestCase):
    def test_example_calls_with_credentials_in_place(self):
        update, owner = skills_agent.calls_in(SKILL)
        self.assertEqual((update.name, update.method, update.url), ("update_pet", "PATCH", "https://api.example.com/pets/7"))
        self.assertEqual(update.query, [("api_key", "rt-api-key-0123456789"), ("tag", "a b")])
        self.assertEqual(update.headers["Authorization"], "Bearer rt-bearer-token-0123456789")
        self.assertEqual(update.body, b"{}")
        self.assertIsNone(update.refused)
        self.assertEqual(owner.headers["X-API-Key"], "rt-api-key-0123456789")
        self.assertEqual(owner.headers["X-Client-Id"], "rt-api-key-0123456789")
        self.assertIsNone(owner.body)
        self.assertEqual(owner.refused[0], "unfilled-placeholder")
        self.assertIn("<owner_id>", owner.refused[1])

    def test_the_skills_the_index_lists(self):
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        os.makedirs(os.path.join(folder, ".well-known", "agent-skills", "pets"))
        with open(os.path.join(folder, ".well-known", "agent-skills", "index.json"), "w") as f:
            json.dump({"skills": [{"name": "pets", "url": "/.well-known/agent-skills/pets/SKILL.md"},
                                  {"name": "gone", "url": "/.well-known/agent-skills/gone/SKILL.md"}]}, f)
        with open(os.path.join(folder, ".well-known", "agent-skills", "pets", "SKILL.md"), "w") as f:
            f.write(SKILL)
        found = skills_agent.calls(folder, "https://api.example.com")
        self.assertEqual([c.name for c in found], ["update_pet", "get_owner"])


class Harness(unittest.TestCase):
    def test_base_path_is_taken_off(self):
        servers = ["https://1forge.com/forex-quotes", "http://1forge.com/forex-quotes"]
        self.assertEqual(to_prism("https://1forge.com/forex-quotes/quotes?a=1", servers, 9),
                         "http://127.0.0.1:9/quotes?a=1")
        self.assertIsNone(to_prism("https://elsewhere.com/forex-quotes/quotes", servers, 9))
        self.assertTrue(unroutable("/tags/abc", ["/tags/{resourceArn}#tagKeys"]))
        self.assertTrue(unroutable("/rest", ["/rest?method=flickr.photos.search"]))
        self.assertFalse(unroutable("/rest/x", ["/rest?method=flickr.photos.search"]))

    def test_classify(self):
        violations = [{"location": ["request", "query"], "severity": "Error", "code": "required",
                       "message": "Request query must have required property 'api-version'"},
                      {"location": ["request"], "severity": "Error", "code": 401, "message": "Invalid security scheme used"}]
        ok, classes, _ = classify(400, {"sl-violations": json.dumps(violations)}, "{}")
        self.assertEqual((ok, classes), (False, ["security", "missing-query"]))
        response_only = [{"location": ["response", "body"], "severity": "Error", "code": "type", "message": "x"}]
        self.assertTrue(classify(500, {"sl-violations": json.dumps(response_only),
                                       "content-type": "application/problem+json"},
                                 '{"type":"https://stoplight.io/prism/errors#VIOLATIONS"}')[0])
        ok, classes, _ = classify(404, {"content-type": "application/problem+json"},
                                  '{"type":"https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR"}')
        self.assertEqual((ok, classes), (False, ["path-not-found"]))

    def test_an_optional_query_object_left_out_is_prisms_to_get_wrong(self):
        said = "query.sort Request query parameter sort must have required property 'by'"
        self.assertTrue(absent_optional_object(said, ["limit"], set()))
        # Sent, or required by the spec: the rejection stands.
        self.assertFalse(absent_optional_object(said, ["sort[direction]"], set()))
        self.assertFalse(absent_optional_object(said, ["sort"], set()))
        self.assertFalse(absent_optional_object(said, [], {"sort"}))
        # A parameter `$ref` the harness could not read: nothing is known, so it stands.
        self.assertFalse(absent_optional_object(said, [], None))
        # Any other violation beside it: the rejection stands.
        other = said + "; query Request query must have required property 'api-version'"
        self.assertFalse(absent_optional_object(other, [], set()))

    def test_a_form_array_is_prisms_to_get_wrong(self):
        said = "body.Permission Request body property Permission must be array"
        form = "application/x-www-form-urlencoded"
        self.assertTrue(form_array(said, form, b"FriendlyName=abc&Permission=abc"))
        self.assertTrue(form_array(said, form, b"Permission=a&Permission=b"))
        # Not sent, another media type, another violation beside it: the rejection stands.
        self.assertFalse(form_array(said, form, b"FriendlyName=abc"))
        self.assertFalse(form_array(said, "application/json", b'{"Permission": "abc"}'))
        other = said + "; body.Type Request body property Type must be equal to one of the allowed values"
        self.assertFalse(form_array(other, form, b"Permission=abc&Type=x"))


if __name__ == "__main__":
    unittest.main()
