import Logbook
import EventLog

/// The 50-place catalog of the demo data: restaurants and activities around Berlin, generated
/// from fixed name parts so every run has the same catalog.
enum DemoCatalog {
    static func places() -> [PlaceAdded] {
        let restaurantNames = ["Café Luna", "Zur Linde", "Ñam Ñam", "Pho Saigon", "Trattoria Sole", "Kebab 36", "Sushi Ōtani",
                               "Brasserie Émile", "Curry Eck", "Dumpling Haus", "Taquería Flor", "Green Bowl", "Bäckerei Kühn",
                               "Smokehouse", "Mezze Bar", "Ramen Tatsu", "La Crêperie", "Falafel King", "Pizza Rossa", "Ægir Fisk",
                               "Köfte Kutsche", "Bistro Zoë", "Noodle Nest", "Veggie Garden", "Wurstbude"]
        let restaurantKinds = ["café", "german", "spanish", "vietnamese", "italian", "turkish", "japanese", "french", "street food", "chinese"]
        let activityNames = ["Climbing Hall", "Lake Trail", "Yoga Loft", "Bouldering Cave", "City Pool", "Tempelhof Loop",
                             "Spin Studio", "Forest Run", "Rowing Club", "Tennis Courts", "Skate Park", "Dance Studio",
                             "Kayak Rental", "Boxing Gym", "Open-Air Gym", "Pilates Room", "Bike Tour Start", "Archery Range",
                             "Ice Rink", "Trampoline Park", "Frisbee Field", "Sauna Garden", "Hiking Meetup", "Squash Club", "Beach Volley"]
        let activityKinds = ["climbing", "running", "yoga", "swimming", "cycling", "gym", "water sports", "racket sports"]
        var places: [PlaceAdded] = []
        for index in 0..<25 {
            places.append(PlaceAdded(
                placeId: "p-r\(index + 1)", name: restaurantNames[index], category: .restaurant,
                subcategory: restaurantKinds[index % restaurantKinds.count],
                latitude: 52.45 + Double(index % 7) * 0.021, longitude: 13.30 + Double(index % 5) * 0.037,
                address: "Straße \(index + 1), Berlin", phone: index % 3 == 0 ? "+49 30 \(1000 + index * 37)" : nil,
                priceLevel: 1 + index % 4))
            places.append(PlaceAdded(
                placeId: "p-a\(index + 1)", name: activityNames[index], category: .activity,
                subcategory: activityKinds[index % activityKinds.count],
                latitude: 52.47 + Double(index % 6) * 0.019, longitude: 13.33 + Double(index % 4) * 0.041,
                notes: index % 4 == 0 ? "Bring a towel" : nil))
        }
        return places
    }
}
