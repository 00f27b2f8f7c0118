"""Credentials placed as an OpenAPI Security Scheme Object says (both agents use it: the ai
agent for the scheme `auth.docs` points at, the MCP agent for the binding's `security`), and
as a requirement of several schemes sent together says."""
from request import API_KEY, BEARER, basic_credentials

DIGEST = ('Digest username="rtuser", realm="api", nonce="abc123", uri="x", '
          'response="0123456789abcdef"')


def apply_scheme(call, scheme):
    """Puts the dummy credential for one scheme on the call; False for a scheme an agent
    cannot satisfy with a fixed credential (mutual TLS, an unknown type)."""
    kind = (scheme.get("type") or "").lower()
    if kind == "apikey":
        where, name = scheme.get("in"), scheme.get("name")
        if not name:
            return False
        if where == "header":
            call.headers[name] = API_KEY
        elif where == "query":
            call.add_query(name, API_KEY)
        elif where == "cookie":
            call.cookies[name] = API_KEY
        else:
            return False
        return True
    if kind == "http":
        http = (scheme.get("scheme") or "").lower()
        if http == "basic":
            call.headers["Authorization"] = basic_credentials()
        elif http == "digest":
            call.headers["Authorization"] = DIGEST
        else:
            # bearer, and any other HTTP scheme an agent can only try with its token
            call.headers["Authorization"] = f"Bearer {BEARER}"
        return True
    if kind in ("oauth2", "openidconnect"):
        call.headers["Authorization"] = f"Bearer {BEARER}"
        return True
    return False


def apply_requirement(call, requirement):
    """A binding's `security` entry: one scheme, or `{"allOf": [...]}` of schemes the call
    sends together. False when some scheme of it cannot be satisfied."""
    if isinstance(requirement, dict) and isinstance(requirement.get("allOf"), list):
        schemes = requirement["allOf"]
        return bool(schemes) and all(isinstance(s, dict) and apply_scheme(call, s) for s in schemes)
    return isinstance(requirement, dict) and apply_scheme(call, requirement)
