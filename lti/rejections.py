"""Why a launch was refused: pylti1p3's exception messages sorted into the reasons an
administrator can act on, each with a sentence for the person who launched."""

from dataclasses import dataclass

from lti_tool.models import LtiRegistration

from lti.claims import ClaimRefused


@dataclass(frozen=True)
class Rejection:
    """A refused launch: `reason` is a stable code for the log, `message` is for people."""

    reason: str
    message: str
    detail: str


_MESSAGES = {
    "state_mismatch": "This launch did not come from the sign-in this browser started. If your "
                      "browser blocks cookies in embedded pages, open the tool in a new window "
                      "from your course, or allow cookies for this site.",
    "bad_signature": "The launch was not signed by the learning platform's key.",
    "expired_token": "The launch had expired. Open the activity again from your course.",
    "invalid_dates": "The launch did not say, as numbers, when it was issued and when it "
                     "expires.",
    "token_lifetime": "The launch was valid for longer than this tool accepts.",
    "issued_in_future": "The launch was issued in the future: the learning platform's clock "
                        "or this service's is wrong.",
    "replayed_nonce": "This launch was already used. Open the activity again from your course.",
    "unknown_nonce": "This launch did not come from a sign-in this tool started. Open the "
                     "activity again from your course.",
    "unknown_issuer": "This learning platform is not registered with the tool.",
    "wrong_audience": "The launch was meant for another tool (its audience is not this tool's "
                      "client id on that platform).",
    "unknown_deployment": "This deployment of the tool is not registered (or not active). "
                          "Ask the administrator to add its deployment id.",
    "keyset_unavailable": "The learning platform's keys could not be fetched.",
    "invalid_message": "The launch message is incomplete or malformed.",
}


def _registration_problem(issuer: str) -> str:
    if issuer and LtiRegistration.objects.active().filter(issuer=issuer).exists():
        return "wrong_audience"
    return "unknown_issuer"


def rejection_for(error: Exception, *, issuer: str = "") -> Rejection:
    """The rejection that `error` (raised while validating a launch from `issuer`) stands for."""
    detail = str(error)
    text = detail.lower()
    if isinstance(error, ClaimRefused):
        reason = error.reason
    elif "state" in text and ("not found" in text or "missing" in text):
        reason = "state_mismatch"
    elif "replayed nonce" in text or "invalid nonce" in text or '"nonce" is empty' in text:
        reason = "replayed_nonce"
    elif "expired" in text:
        reason = "expired_token"
    elif "registration not found" in text or "client id not registered" in text:
        reason = _registration_problem(issuer)
    elif "deployment" in text:
        reason = "unknown_deployment"
    elif "keyset" in text or "fetch url" in text:
        reason = "keyset_unavailable"
    elif "signature" in text or "unable to find public key" in text or "decode id_token" in text:
        reason = "bad_signature"
    else:
        reason = "invalid_message"
    return Rejection(reason=reason, message=_MESSAGES[reason], detail=detail)
