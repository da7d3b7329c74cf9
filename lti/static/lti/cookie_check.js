// The LTI login's cookie check (pylti1p3's, moved to a file for the Content-Security-Policy):
// if this page can set a cookie, go on to the platform; otherwise offer a new window.
(function () {
  var script = document.currentScript;
  var secure = script && script.getAttribute("data-secure") === "1";
  var params = JSON.parse(document.getElementById("lti-cookie-check-params").textContent);

  function updatedUrl() {
    var search = new URLSearchParams(window.location.search);
    Object.keys(params).forEach(function (key) {
      if (!search.has(key)) { search.set(key, params[key]); }
    });
    return window.location.origin + window.location.pathname + "?" + search.toString();
  }

  function check() {
    var cookie = "lti1p3_test_cookie=1; path=/" + (secure ? "; SameSite=None; secure" : "");
    document.cookie = cookie;
    if (document.cookie.indexOf("lti1p3_test_cookie") !== -1) {
      document.cookie = "lti1p3_test_cookie=1; expires=Thu, 01-Jan-1970 00:00:01 GMT; path=/";
      document.getElementById("lti1p3-loading-msg").hidden = false;
      window.location.href = updatedUrl();
      return;
    }
    var url = updatedUrl();
    var link = document.getElementById("lti1p3-new-tab-link");
    document.getElementById("lti1p3-warning-msg").hidden = false;
    link.href = url;
    link.addEventListener("click", function (event) {
      event.preventDefault();
      window.open(url, "_blank");
      link.parentNode.removeChild(link);
    });
  }

  document.addEventListener("DOMContentLoaded", check);
})();
