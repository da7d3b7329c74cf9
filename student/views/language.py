"""The person's Language page: the interface language they choose for every page (the first
rule of courses/languages.py), or none (then the LMS, the course or the browser decides)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from courses.languages import language_preference, language_preference_set, language_supported


@login_required
def language(request: HttpRequest) -> HttpResponse:
    """GET: the form (the languages, the person's choice checked). POST `language` (a code of
    settings.LANGUAGES, or '' for "as the course or browser says"): kept, then back to `next`
    (a page of this site) or to this page, in the new language."""
    if request.method == "POST":
        wanted = request.POST.get("language", "")
        if wanted and language_supported(wanted) is None:
            messages.error(request, _("Choose one of the languages listed."))
            return redirect("language")
        code = language_preference_set(user=request.user, language=wanted,
                                       session=request.session)
        translation.activate(code or settings.LANGUAGE_CODE)
        messages.success(request, _("Your language is saved."))
        target = request.POST.get("next", "")
        if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):
            target = ""
        return redirect(target or "language")
    return render(request, "student/language.html", {
        "languages": settings.LANGUAGES,
        "chosen": language_preference(user=request.user),
        "next": request.GET.get("next", ""),
    })
