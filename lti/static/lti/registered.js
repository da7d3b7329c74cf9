// Tells the learning platform that dynamic registration finished (LTI Dynamic Registration 1.0).
(window.opener || window.parent).postMessage({subject: "org.imsglobal.lti.close"}, "*");
