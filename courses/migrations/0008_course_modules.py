"""A course runs an ordered list of modules (CourseModule); every existing course keeps its
module as its first one."""

import django.db.models.deletion
from django.db import migrations, models


def first_modules(apps, schema_editor):
    Course = apps.get_model("courses", "Course")
    CourseModule = apps.get_model("courses", "CourseModule")
    CourseModule.objects.bulk_create(
        [CourseModule(course_id=pk, module_id=module_id, order=0)
         for pk, module_id in Course.objects.values_list("pk", "module_id")],
        ignore_conflicts=True)


class Migration(migrations.Migration):

    dependencies = [
        ('courses', '0007_figure_kind_state_chain'),
    ]

    operations = [
        migrations.CreateModel(
            name='CourseModule',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('order', models.PositiveIntegerField(default=0)),
                ('release_at', models.DateTimeField(blank=True, help_text='students see the module from this moment (empty: now)', null=True)),
                ('due_at', models.DateTimeField(blank=True, help_text='due date of the module\'s exercises that have no deadline of their own', null=True)),
                ('weight', models.FloatField(default=1.0, help_text="the module's weight in the course total")),
                ('course', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='course_modules', to='courses.course')),
                ('module', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='course_links', to='courses.module')),
            ],
            options={
                'ordering': ['course', 'order', 'pk'],
                'constraints': [models.UniqueConstraint(fields=('course', 'module'), name='module_once_per_course')],
            },
        ),
        migrations.AddField(
            model_name='course',
            name='modules',
            field=models.ManyToManyField(related_name='run_in', through='courses.CourseModule', to='courses.module'),
        ),
        migrations.RunPython(first_modules, migrations.RunPython.noop),
    ]
