"""The invite link page: `/invite/<token>/` joins the course with the link's role, signing in
first (its sign-in form posts to the site's sign-in, which brings the person back here) or
creating an account there."""

from typing import cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from core.user_cache import USER_BACKEND
from courses.people import PeopleRefused, invite_accept, invite_find, invite_sign_up


@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what the link joins and how. POST `action=join` (signed in) or `action=sign-up`
    (a new account). An unknown token is a 404; an ended link says so."""
    found = invite_find(token=token)
    if found is None:
        raise Http404("No such invite link.")
    error = ""
    if request.method == "POST":
        try:
            if request.POST.get("action") == "join" and request.user.is_authenticated:
                invite_accept(token=token, user=cast(User, request.user))
            elif request.POST.get("action") == "sign-up" and not request.user.is_authenticated:
                enrollment = invite_sign_up(
                    token=token, username=request.POST.get("username", ""),
                    email=request.POST.get("email", ""),
                    password=request.POST.get("password", ""),
                    first_name=request.POST.get("first_name", ""),
                    last_name=request.POST.get("last_name", ""))
                login(request, enrollment.user,
                      backend=USER_BACKEND)
            else:
                raise PeopleRefused("Sign in first, or create an account below.")
        except PeopleRefused as refused:
            error = str(refused)
        else:
            messages.success(request, f"You joined {found.course.title}.")
            return redirect(reverse("course-module", args=[found.course.slug]))
    return render(request, "student/invite.html", {
        "invite": found, "open": found.open_at(timezone.now()), "error": error,
        "form": request.POST if request.method == "POST" else {},
        "reset_by_email": settings.PASSWORD_RESET_BY_EMAIL,
    }, status=400 if error else 200)
