"""Django admin for content, course runs and enrolments (content is authored in files)."""

from typing import Any

from django.contrib import admin

from courses.models import (
    ContentSync,
    Course,
    CourseModule,
    Enrollment,
    Exercise,
    Figure,
    Lab,
    Module,
    Part,
    Section,
)


class ArchivedFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "archived"

    def lookups(self, request: Any, model_admin: Any) -> tuple[tuple[str, str], ...]:
        return (("no", "Active"), ("yes", "Archived"))

    def queryset(self, request: Any, queryset: Any) -> Any:
        if self.value() == "no":
            return queryset.filter(archived_at__isnull=True)
        if self.value() == "yes":
            return queryset.filter(archived_at__isnull=False)
        return queryset


CONTENT_READONLY = ("uuid", "source_path", "created_at", "updated_at")
REPOSITORY_POINTER = (
    "Content comes from the course's repository: change the file named in source path and "
    "press Sync on the course's Content page (or run manage.py sync_content). It is read-only "
    "here, and nothing here deletes it."
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows are shown, never added, changed or deleted here."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class ContentAdmin(ReadOnlyAdmin):
    """Content is read-only in the admin (the repository is its source); nothing deletes it."""

    def changeform_view(self, request: Any, object_id: Any = None, form_url: str = "",
                        extra_context: dict[str, Any] | None = None) -> Any:
        return super().changeform_view(request, object_id, form_url,
                                       {**(extra_context or {}), "subtitle": REPOSITORY_POINTER})

    def changelist_view(self, request: Any, extra_context: dict[str, Any] | None = None) -> Any:
        return super().changelist_view(request, {**(extra_context or {}),
                                                 "subtitle": REPOSITORY_POINTER})


@admin.register(Module)
class ModuleAdmin(ContentAdmin):
    list_display = ("number", "title", "slug", "archived_at")
    list_filter = (ArchivedFilter,)
    search_fields = ("title", "slug", "uuid")
    readonly_fields = CONTENT_READONLY


@admin.register(Section)
class SectionAdmin(ContentAdmin):
    list_display = ("number", "title", "module", "order", "archived_at")
    list_filter = (ArchivedFilter, "module")
    search_fields = ("number", "title", "slug", "body", "uuid")
    readonly_fields = CONTENT_READONLY


@admin.register(Figure)
class FigureAdmin(ContentAdmin):
    list_display = ("number", "title", "kind", "section", "archived_at")
    list_filter = (ArchivedFilter, "kind")
    search_fields = ("title", "slug", "in_words", "uuid")
    readonly_fields = CONTENT_READONLY


@admin.register(Lab)
class LabAdmin(ContentAdmin):
    list_display = ("title", "slug", "simulation", "section", "archived_at")
    list_filter = (ArchivedFilter, "simulation", "module")
    search_fields = ("title", "slug", "uuid")
    readonly_fields = CONTENT_READONLY


class PartInline(admin.TabularInline):
    model = Part
    extra = 0
    can_delete = False
    fields = ("key", "answer_type", "points", "order", "archived_at")
    readonly_fields = ("archived_at",)
    show_change_link = True


@admin.register(Exercise)
class ExerciseAdmin(ContentAdmin):
    list_display = ("title", "slug", "kind", "section", "max_attempts", "archived_at")
    list_filter = (ArchivedFilter, "kind", "module")
    search_fields = ("title", "slug", "prompt", "uuid")
    readonly_fields = CONTENT_READONLY
    inlines = (PartInline,)


@admin.register(Part)
class PartAdmin(ContentAdmin):
    list_display = ("__str__", "answer_type", "points", "archived_at")
    list_filter = (ArchivedFilter, "answer_type", "exercise__kind")
    search_fields = ("key", "exercise__slug", "prompt")
    list_select_related = ("exercise",)


class EnrollmentInline(admin.TabularInline):
    model = Enrollment
    extra = 0
    autocomplete_fields = ("user",)


class CourseModuleInline(admin.TabularInline):
    """The modules the course runs: their order comes from the course file at each sync;
    release and due dates and weights are set here and kept by syncs."""

    model = CourseModule
    extra = 0
    fields = ("module", "order", "release_at", "due_at", "weight")


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "module", "created_at")

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
    list_filter = ("module",)
    search_fields = ("title", "slug")
    inlines = (CourseModuleInline, EnrollmentInline)


class GroupFilter(admin.SimpleListFilter):
    """The enrolments' groups, the blank one named "No group" (a link needs a name, WCAG 4.1.2)."""

    title = "group"
    parameter_name = "group"

    def lookups(self, request: Any, model_admin: Any) -> list[tuple[str, str]]:
        groups = Enrollment.objects.order_by("group").values_list("group", flat=True).distinct()
        return [(group or "-", group or "No group") for group in groups]

    def queryset(self, request: Any, queryset: Any) -> Any:
        if self.value() is None:
            return queryset
        return queryset.filter(group="" if self.value() == "-" else self.value())


@admin.register(Enrollment)
class EnrollmentAdmin(admin.ModelAdmin):
    list_display = ("user", "course", "role", "group", "is_active")
    list_filter = ("role", "is_active", "course", GroupFilter)
    search_fields = ("user__username", "user__first_name", "user__last_name", "user__email",
                     "external_id")
    list_select_related = ("user", "course")
    autocomplete_fields = ("user",)


@admin.register(ContentSync)
class ContentSyncAdmin(ReadOnlyAdmin):
    """The record of syncs: read-only."""

    list_display = ("course", "at", "by", "dry_run", "ok", "revision")
    list_filter = ("ok", "dry_run", "course")
