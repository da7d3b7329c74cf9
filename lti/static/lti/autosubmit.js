// Sends a form marked data-autosubmit as soon as the page loads (the deep-linking answer).
document.querySelectorAll("form[data-autosubmit]").forEach(function (form) { form.submit(); });
