"""Lab runs are added by the labs issue; the app exists so content can name labs."""
