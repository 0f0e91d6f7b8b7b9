<%@ page session="false" %><!DOCTYPE html>
<html>
<head><title>Widget shop</title></head>
<body><p>${message}</p></body>
</html>
