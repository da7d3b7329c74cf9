"""Django admin for content, course runs and enrolments (content is authored in files)."""

from typing import Any

from django.contrib import admin

from courses.models import Course, Enrollment, Exercise, Figure, Lab, Module, Part, Section


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


@admin.register(Module)
class ModuleAdmin(admin.ModelAdmin):
    list_display = ("number", "title", "slug", "archived_at")
    list_filter = (ArchivedFilter,)
    search_fields = ("title", "slug", "uuid")
    readonly_fields = CONTENT_READONLY


@admin.register(Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ("number", "title", "module", "order", "archived_at")
    list_filter = (ArchivedFilter, "module")
    search_fields = ("number", "title", "slug", "body", "uuid")
    readonly_fields = CONTENT_READONLY


@admin.register(Figure)
class FigureAdmin(admin.ModelAdmin):
    list_display = ("number", "title", "kind", "section", "archived_at")
    list_filter = (ArchivedFilter, "kind")
    search_fields = ("title", "slug", "in_words", "uuid")
    readonly_fields = CONTENT_READONLY


@admin.register(Lab)
class LabAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "simulation", "section", "archived_at")
    list_filter = (ArchivedFilter, "simulation", "module")
    search_fields = ("title", "slug", "uuid")
    readonly_fields = CONTENT_READONLY


class PartInline(admin.TabularInline):
    model = Part
    extra = 0
    fields = ("key", "answer_type", "points", "order", "archived_at")
    readonly_fields = ("archived_at",)
    show_change_link = True


@admin.register(Exercise)
class ExerciseAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "kind", "section", "max_attempts", "archived_at")
    list_filter = (ArchivedFilter, "kind", "module")
    search_fields = ("title", "slug", "prompt", "uuid")
    readonly_fields = CONTENT_READONLY
    inlines = (PartInline,)


@admin.register(Part)
class PartAdmin(admin.ModelAdmin):
    list_display = ("__str__", "answer_type", "points", "archived_at")
    list_filter = (ArchivedFilter, "answer_type", "exercise__kind")
    search_fields = ("key", "exercise__slug", "prompt")
    list_select_related = ("exercise",)


class EnrollmentInline(admin.TabularInline):
    model = Enrollment
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ("title", "slug", "module", "created_at")
    list_filter = ("module",)
    search_fields = ("title", "slug")
    inlines = (EnrollmentInline,)


@admin.register(Enrollment)
class EnrollmentAdmin(admin.ModelAdmin):
    list_display = ("user", "course", "role", "group", "is_active")
    list_filter = ("role", "is_active", "course", "group")
    search_fields = ("user__username", "user__first_name", "user__last_name", "user__email",
                     "external_id")
    list_select_related = ("user", "course")
    autocomplete_fields = ("user",)
